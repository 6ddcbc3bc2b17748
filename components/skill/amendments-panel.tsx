"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import type { ActionResult } from "@/lib/actions/result";
import type { AmendmentEntry } from "@/lib/evolution/amendments";
import { AmendmentStateLine } from "@/components/history/amendment-state";
import { ApprovalForms, ReasonForm } from "@/components/history/approval-forms";
import { ActionButton } from "@/components/action-button";
import { GenerateAmendmentButton } from "@/components/skill/generate-amendment-button";
import { ReproposeButton } from "@/components/history/repropose-button";
import { Table } from "@/components/ui/table";

type ReasonAction = (amendmentId: number, previous: ActionResult | null, form: FormData) => Promise<ActionResult>;
type OverrideAction = (amendmentId: number, seen: string, previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

export interface AmendmentActions {
  evaluate: (amendmentId: number) => Promise<ActionResult>;
  approve: (amendmentId: number) => Promise<ActionResult>;
  reject: ReasonAction;
  /** Overrides the state the row showed, and nothing it has become since. */
  override: OverrideAction;
  /** Re-proposes an out-of-date amendment against the current version; `regenerate` has the model write it again. */
  repropose: (amendmentId: number, regenerate: boolean) => Promise<ActionResult>;
  generate: (() => Promise<ActionResult>) | null;
}

/** States an amendment can be evaluated from, and those a lead may override from (docs/evaluation-and-activation.md#amendment-states). */
const EVALUABLE = new Set(["pending", "evaluated"]);
const OVERRIDABLE = new Set(["pending", "evaluated", "rejected"]);

/**
 * The skill's amendments, each with its state and the decisions on it (a rejection says who, when
 * and why). What can be done depends on the state: evaluate one pending or evaluated; a lead
 * approves or rejects one awaiting approval, or overrides anything else not live, with a reason.
 * One the skill has moved past is out of date: it can only be re-proposed (or rejected).
 */
export function AmendmentsPanel({
  slug,
  amendments,
  actions,
  canEdit,
  isLead,
  hasModel,
  appliesHere,
}: {
  slug: string;
  amendments: AmendmentEntry[];
  actions: AmendmentActions;
  canEdit: boolean;
  isLead: boolean;
  hasModel: boolean;
  /** Whether an amendment can go live here: a learned skill's can; a built-in or file skill's is a patch for its repository. */
  appliesHere: boolean;
}) {
  const { generate } = actions;
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-3">
        {generate && hasModel && <GenerateAmendmentButton generate={generate} />}
        {!hasModel && <span className="text-xs text-slate-500">Set SKILLGATE_MODEL to evaluate or generate amendments.</span>}
      </div>
      {amendments.length === 0 ? (
        <p className="text-sm text-slate-500">No amendments yet. Propose one from the editor, or let an agent post one.</p>
      ) : (
        <AmendmentsTable
          slug={slug}
          amendments={amendments}
          actions={actions}
          may={{ evaluate: canEdit && hasModel, propose: canEdit, hasModel, isLead, appliesHere }}
        />
      )}
    </div>
  );
}

/** What this person may do to amendments, by their role, the model and the skill's source. */
interface May {
  evaluate: boolean;
  /** Re-propose an out-of-date amendment: an editor's, as proposing is. */
  propose: boolean;
  hasModel: boolean;
  isLead: boolean;
  appliesHere: boolean;
}

function AmendmentsTable({
  slug,
  amendments,
  actions,
  may,
}: {
  slug: string;
  amendments: AmendmentEntry[];
  actions: AmendmentActions;
  may: May;
}) {
  return (
    <Table
      label="Every amendment"
      testId="amendments"
      cards
      head={
        <>
          <th className="py-1">#</th>
          <th className="py-1">Against</th>
          <th className="py-1">From</th>
          <th className="py-1">Rationale</th>
          <th className="py-1">Evaluation</th>
          <th className="py-1">State</th>
          <th className="py-1" />
        </>
      }
    >
      {amendments.map((a) => (
        <AmendmentRow key={a.id} slug={slug} amendment={a}>
          <Decisions amendment={a} actions={actions} may={may} />
        </AmendmentRow>
      ))}
    </Table>
  );
}

function AmendmentRow({ slug, amendment: a, children }: { slug: string; amendment: AmendmentEntry; children: ReactNode }) {
  return (
    <tr className="border-t border-slate-100 align-top" data-amendment={a.id} data-status={a.status}>
      <td className="py-1.5">
        <Link className="text-indigo-700 underline" href={`/t/${slug}/history/amendments/${a.id}`}>
          #{a.id}
        </Link>
      </td>
      <td className="py-1.5" data-heading="Against">
        v{a.base}
      </td>
      <td className="py-1.5" data-heading="From">
        {a.author}
      </td>
      <td className="py-1.5 text-slate-700 max-sm:w-full">{a.rationale}</td>
      <td className="py-1.5" data-heading="Evaluation">
        {a.evaluation ? (
          <Link className="text-indigo-700 hover:underline" href={`/t/${slug}/history/evaluations/${a.evaluation.id}`}>
            #{a.evaluation.id} {a.evaluation.status === "finished" ? a.evaluation.verdict : a.evaluation.status}
          </Link>
        ) : (
          "not evaluated"
        )}
      </td>
      <td className="max-w-xs py-1.5 text-xs max-sm:w-full max-sm:max-w-none">
        <AmendmentStateLine slug={slug} entry={a} />
      </td>
      {children}
    </tr>
  );
}

/** The last cell of a row: what can be done to the amendment in its state, by this person. */
function Decisions({ amendment: a, actions, may }: { amendment: AmendmentEntry; actions: AmendmentActions; may: May }) {
  if (a.outdated && a.current !== null) return <OutdatedDecisions amendment={a} current={a.current} actions={actions} may={may} />;
  return (
    <td className="space-y-1 py-1.5 text-right max-sm:w-full max-sm:text-left">
      {may.evaluate && EVALUABLE.has(a.status) && (
        <ActionButton
          label="Evaluate"
          size="xs"
          confirm={`Evaluate amendment #${a.id} against this skill's recorded runs?`}
          action={actions.evaluate.bind(null, a.id)}
        />
      )}
      {may.isLead && a.status === "awaiting-approval" && (
        <details className="text-left">
          <summary className="cursor-pointer text-xs font-medium text-amber-900">Approve or reject</summary>
          <div className="mt-2 w-64">
            <ApprovalForms amendmentId={a.id} approve={actions.approve.bind(null, a.id)} reject={actions.reject.bind(null, a.id)} />
          </div>
        </details>
      )}
      {may.isLead && may.appliesHere && OVERRIDABLE.has(a.status) && (
        <details className="text-left">
          <summary className="cursor-pointer text-xs font-medium text-amber-900">Override…</summary>
          <div className="mt-2 w-64">
            <ReasonForm
              name={`Override amendment #${a.id}`}
              label={`Put #${a.id} live although it is ${a.status}, saying why (a manual override):`}
              button="Override and put live"
              action={actions.override.bind(null, a.id, a.status)}
            />
          </div>
        </details>
      )}
    </td>
  );
}

/** An out-of-date amendment can no longer be evaluated, approved or overridden as it is: it is re-proposed against the current version, or a lead rejects it. */
function OutdatedDecisions({
  amendment: a,
  current,
  actions,
  may,
}: {
  amendment: AmendmentEntry;
  current: number;
  actions: AmendmentActions;
  may: May;
}) {
  return (
    <td className="space-y-1 py-1.5 text-right max-sm:w-full max-sm:text-left">
      {may.propose && (
        // As wide as the forms beside it, so a refusal said under the button reads as a paragraph.
        <div className="ml-auto w-64">
          <ReproposeButton amendmentId={a.id} current={current} hasModel={may.hasModel} repropose={actions.repropose.bind(null, a.id)} />
        </div>
      )}
      {may.isLead && a.status === "awaiting-approval" && (
        <details className="text-left">
          <summary className="cursor-pointer text-xs font-medium text-amber-900">Reject</summary>
          <div className="mt-2 w-64">
            <ReasonForm
              name={`Reject amendment #${a.id}`}
              label="Reject it, saying why"
              button="Reject"
              action={actions.reject.bind(null, a.id)}
            />
          </div>
        </details>
      )}
    </td>
  );
}
