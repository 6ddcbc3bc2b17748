"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, useTransition, type ReactNode } from "react";
import type { ActionResult } from "@/lib/actions/result";
import type { AmendmentEntry } from "@/lib/evolution/amendments";
import { AmendmentStateLine } from "@/components/history/amendment-state";
import { ApprovalForms, ReasonForm } from "@/components/history/approval-forms";
import { useNotice } from "@/components/action-notice";
import { GenerateAmendmentButton } from "@/components/skill/generate-amendment-button";
import { Table } from "@/components/ui/table";

type ReasonAction = (amendmentId: number, previous: ActionResult | null, form: FormData) => Promise<ActionResult>;
type OverrideAction = (amendmentId: number, seen: string, previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

export interface AmendmentActions {
  evaluate: (amendmentId: number) => Promise<ActionResult>;
  approve: (amendmentId: number) => Promise<ActionResult>;
  reject: ReasonAction;
  /** Overrides the state the row showed, and nothing it has become since. */
  override: OverrideAction;
  generate: (() => Promise<ActionResult>) | null;
}

/** States an amendment can be evaluated from, and those a lead may override from (§8.4). */
const EVALUABLE = new Set(["pending", "evaluated"]);
const OVERRIDABLE = new Set(["pending", "evaluated", "rejected"]);

/**
 * The skill's amendments, each with its state and the decisions on it (a rejection says who, when
 * and why). What can be done depends on the state: evaluate one pending or evaluated; a lead
 * approves or rejects one awaiting approval, or overrides anything else not live, with a reason.
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
  const router = useRouter();
  const notify = useNotice();
  const [refusal, setRefusal] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const act = (work: () => Promise<ActionResult>, confirmText: string) => {
    if (!window.confirm(confirmText)) return;
    startTransition(async () => {
      const outcome = await work();
      setRefusal(outcome.ok ? null : outcome.message);
      if (!outcome.ok) return;
      // Evaluate answers with the evaluation page (a redirect); the other moves come back here.
      notify(outcome.message);
      router.refresh();
    });
  };
  const { generate } = actions;
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-3">
        {generate && hasModel && <GenerateAmendmentButton generate={generate} />}
        {!hasModel && <span className="text-xs text-slate-500">Set SKILLGATE_MODEL to evaluate or generate amendments.</span>}
      </div>
      {refusal && (
        <p role="alert" className="text-sm text-red-700">
          {refusal}
        </p>
      )}
      {amendments.length === 0 ? (
        <p className="text-sm text-slate-500">No amendments yet. Propose one from the editor, or let an agent post one.</p>
      ) : (
        <AmendmentsTable
          slug={slug}
          amendments={amendments}
          actions={actions}
          act={act}
          pending={pending}
          may={{ evaluate: canEdit && hasModel, isLead, appliesHere }}
        />
      )}
    </div>
  );
}

/** What this person may do to amendments, by their role, the model and the skill's source. */
interface May {
  evaluate: boolean;
  isLead: boolean;
  appliesHere: boolean;
}

type Act = (work: () => Promise<ActionResult>, confirmText: string) => void;

function AmendmentsTable({
  slug,
  amendments,
  actions,
  act,
  pending,
  may,
}: {
  slug: string;
  amendments: AmendmentEntry[];
  actions: AmendmentActions;
  act: Act;
  pending: boolean;
  may: May;
}) {
  return (
    <Table
      label="Every amendment"
      testId="amendments"
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
          <Decisions amendment={a} actions={actions} act={act} pending={pending} may={may} />
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
      <td className="py-1.5">v{a.baseVersion}</td>
      <td className="py-1.5">{a.author}</td>
      <td className="py-1.5 text-slate-700">{a.rationale}</td>
      <td className="py-1.5">
        {a.evaluation ? (
          <Link className="text-indigo-700 hover:underline" href={`/t/${slug}/history/evaluations/${a.evaluation.id}`}>
            #{a.evaluation.id} {a.evaluation.status === "finished" ? a.evaluation.verdict : a.evaluation.status}
          </Link>
        ) : (
          "not evaluated"
        )}
      </td>
      <td className="max-w-xs py-1.5 text-xs">
        <AmendmentStateLine entry={a} />
      </td>
      {children}
    </tr>
  );
}

/** The last cell of a row: what can be done to the amendment in its state, by this person. */
function Decisions({
  amendment: a,
  actions,
  act,
  pending,
  may,
}: {
  amendment: AmendmentEntry;
  actions: AmendmentActions;
  act: Act;
  pending: boolean;
  may: May;
}) {
  return (
    <td className="space-y-1 py-1.5 text-right">
      {may.evaluate && EVALUABLE.has(a.status) && (
        <button
          disabled={pending}
          onClick={() => act(() => actions.evaluate(a.id), `Evaluate amendment #${a.id} against this skill's recorded runs?`)}
          className="rounded-md border border-slate-300 px-2 py-0.5 text-xs hover:bg-slate-100"
        >
          Evaluate
        </button>
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
