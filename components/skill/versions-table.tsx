import Form from "next/form";
import Link from "next/link";
import type { ActionResult, Decision } from "@/lib/actions/result";
import type { VersionInfo } from "@/lib/learned/history";
import type { VersionEvidence } from "@/lib/skills/version-evidence";
import { Table } from "@/components/ui/table";
import { DecisionButton } from "@/components/decision-dialog";
import { authorLabel } from "./version-caption";
import { When } from "@/components/ui/when";
import { LabelChips, LabelVersion, RemoveLabels, type LabelActions } from "./version-labels";

/** "3 of 6 · 50%": the count a rate rests on, then the rate; a dash when there is nothing to count. */
function share(part: number, whole: number): string {
  return whole === 0 ? "—" : `${part} of ${whole} · ${Math.round((part / whole) * 100)}%`;
}

/** What a lead may do to versions, each absent when they may not (docs/learned-skills.md#reasons), each with the lead's reason. */
interface VersionActions extends LabelActions {
  rollback: ((toVersion: number, decision: Decision) => Promise<ActionResult>) | null;
  pin: ((version: number, decision: Decision) => Promise<ActionResult>) | null;
  unpin: ((decision: Decision) => Promise<ActionResult>) | null;
}

/** The columns, the lead's actions second: on a phone they are on the screen, not past the evidence. */
const HEAD = (
  <>
    <th className="py-1 pr-2">Version</th>
    <th className="px-2 py-1">
      <span className="sr-only">Actions</span>
    </th>
    <th className="px-1 py-1">From</th>
    <th className="px-1 py-1">To</th>
    <th className="px-2 py-1">When</th>
    <th className="px-2 py-1">Author</th>
    <th className="px-2 py-1">Reason</th>
    <th className="px-2 py-1">Tier</th>
    <th className="px-2 py-1 text-right" title="skill_view loads and harness-reported loads of this version">
      Agent loads
    </th>
    <th className="px-2 py-1 text-right" title="recorded runs (observations) of this version that succeeded">
      Runs succeeded
    </th>
    <th className="px-2 py-1 text-right" title="activation-run prompts expecting this skill that loaded it, while this version was listed">
      Activation recall
    </th>
  </>
);

/**
 * Every version with its evidence (agent loads, recorded runs, activation recall); pick any two to compare side by side; a lead can roll back to any earlier one.
 * The comparison is a GET form to the page (next/form): it changes the diff in place, and its URL, which names the pair, opens the same.
 */
export function VersionsTable({
  slug,
  name,
  versions,
  evidence,
  compare,
  pinned,
  pinReason,
  reasonRequired,
  ...actions
}: {
  slug: string;
  name: string;
  versions: VersionInfo[];
  evidence: VersionEvidence[];
  compare: { from: number; to: number } | null;
  /** The version a lead pinned for agents, if any (docs/learned-skills.md#pins), with who pinned it, when and why. */
  pinned: number | null;
  /** Why the lead pinned it, when they said. */
  pinReason: string | null;
  /** The team asks for a reason with every pin, unpin, label move and rollback. */
  reasonRequired: boolean;
} & VersionActions) {
  const current = versions[versions.length - 1]?.version;
  const evidenceOf = new Map(evidence.map((e) => [e.version, e]));
  return (
    <Form action={`/t/${slug}/skills/${name}#diff`}>
      <Table label="Every version and its evidence" testId="versions" head={HEAD} cards>
        {[...versions].reverse().map((v) => (
          <tr key={v.version} className="border-t border-slate-100" data-version={v.version}>
            <VersionCell slug={slug} name={name} version={v} pinned={pinned === v.version} pinReason={pinReason} />
            <VersionActionsCell
              version={v.version}
              labels={v.labels}
              pinned={pinned}
              latest={current ?? v.version}
              reasonRequired={reasonRequired}
              {...actions}
            />
            <CompareCell end="from" version={v.version} checked={compare?.from === v.version} />
            <CompareCell end="to" version={v.version} checked={compare?.to === v.version} />
            <td className="px-2 whitespace-nowrap text-slate-600" data-heading="When">
              {v.createdAt ? <When at={v.createdAt} /> : "—"}
            </td>
            <td className="px-2 text-slate-600" data-heading="Author">
              {authorLabel(v)}
            </td>
            <ReasonCell slug={slug} version={v} />
            <td className="px-2" data-heading="Tier">
              {v.tier}
            </td>
            <EvidenceCells proof={evidenceOf.get(v.version)} />
          </tr>
        ))}
      </Table>
      {versions.length > 1 && (
        <button className="mt-2 rounded-md border border-slate-300 px-3 py-1 text-sm hover:bg-slate-100">
          Compare the two chosen versions
        </button>
      )}
    </Form>
  );
}

/** The version's number, what it reverts to, whether agents are pinned to it, and its diff with the one before. */
function VersionCell({
  slug,
  name,
  version: v,
  pinned,
  pinReason,
}: {
  slug: string;
  name: string;
  version: VersionInfo;
  pinned: boolean;
  pinReason: string | null;
}) {
  return (
    <td className="py-1.5 pr-2 font-medium whitespace-nowrap max-sm:w-full">
      v{v.version}
      {v.revertOf !== null && <span className="ml-1 text-xs text-slate-500">(= v{v.revertOf})</span>}
      {pinned && (
        <span
          className="mt-0.5 block w-fit rounded bg-violet-100 px-1.5 py-0.5 text-xs font-normal whitespace-normal text-violet-900"
          data-testid="pinned"
        >
          pinned: agents get this one{pinReason && <> — “{pinReason}”</>}
        </span>
      )}
      <LabelChips version={v.version} labels={v.labels} />
      {v.version > 1 && (
        <Link
          className="block text-xs font-normal text-indigo-700 underline"
          href={`/t/${slug}/skills/${name}?from=${v.version - 1}&to=${v.version}#diff`}
        >
          diff with v{v.version - 1}
        </Link>
      )}
    </td>
  );
}

/** Why the version was made, and the amendment that made it; wide enough to stay a paragraph when a phone squeezes the table. */
function ReasonCell({ slug, version: v }: { slug: string; version: VersionInfo }) {
  return (
    <td className="min-w-48 px-2 text-slate-600 max-sm:w-full" data-heading="Reason">
      {v.reason ?? "—"}
      {v.amendmentId !== null && (
        <Link className="ml-1 text-indigo-700 underline" href={`/t/${slug}/history/amendments/${v.amendmentId}`}>
          (amendment #{v.amendmentId})
        </Link>
      )}
    </td>
  );
}

/** One end of the comparison: a radio button per version, for each of `from` and `to`. */
function CompareCell({ end, version, checked }: { end: "from" | "to"; version: number; checked: boolean }) {
  return (
    <td className="px-1" data-heading={end === "from" ? "From" : "To"}>
      <input type="radio" name={end} value={version} defaultChecked={checked} aria-label={`compare ${end} v${version}`} />
    </td>
  );
}

function EvidenceCells({ proof }: { proof: VersionEvidence | undefined }) {
  return (
    <>
      <td className="px-2 text-right whitespace-nowrap tabular-nums" data-evidence="views" data-heading="Agent loads">
        {proof?.views ?? 0}
      </td>
      <td className="px-2 text-right whitespace-nowrap tabular-nums" data-evidence="runs" data-heading="Runs succeeded">
        {share(proof?.runs.succeeded ?? 0, proof?.runs.total ?? 0)}
      </td>
      <td className="px-2 text-right whitespace-nowrap tabular-nums" data-evidence="recall" data-heading="Activation recall">
        {share(proof?.recall.loaded ?? 0, proof?.recall.expected ?? 0)}
      </td>
    </>
  );
}

function VersionActionsCell({
  version,
  labels,
  pinned,
  latest,
  reasonRequired,
  rollback,
  pin,
  unpin,
  moveLabel,
  removeLabel,
}: {
  version: number;
  labels: string[];
  /** The version a lead pinned, if any. */
  pinned: number | null;
  latest: number;
  reasonRequired: boolean;
} & VersionActions) {
  const next = latest + 1;
  return (
    <td className="px-2 py-1.5 max-sm:w-full">
      {/* Where the column is narrow, the controls wrap instead of widening it. */}
      <div className="flex flex-wrap gap-1 [&_button]:whitespace-nowrap">
        {moveLabel && <LabelVersion version={version} moveLabel={moveLabel} reasonRequired={reasonRequired} />}
        {removeLabel && <RemoveLabels version={version} labels={labels} removeLabel={removeLabel} reasonRequired={reasonRequired} />}
        {pin && pinned !== version && (
          <DecisionButton
            label={`Pin v${version}`}
            spec={{
              question: `Pin v${version}? Agents get it (skill_view, the listing, installers, skillgate pull) until a lead unpins it.`,
              confirm: `Pin v${version}`,
              reasonRequired,
            }}
            action={pin.bind(null, version)}
          />
        )}
        {unpin && pinned === version && (
          <DecisionButton
            label="Unpin"
            spec={{ question: `Unpin v${version}? Agents get the latest version, v${latest}.`, confirm: "Unpin", reasonRequired }}
            action={unpin}
          />
        )}
        {rollback && version !== latest && (
          <DecisionButton
            label={`Roll back to v${version}`}
            spec={{
              question:
                pinned === null
                  ? `Make v${next} with the content of v${version}? Agents get it now. Nothing is deleted.`
                  : `Make v${next} with the content of v${version} and move the pin from v${pinned} to v${next}, so agents get it now? Nothing is deleted.`,
              confirm: `Roll back to v${version}`,
              reasonRequired,
              option: pinned === null ? undefined : `Keep the pin on v${pinned}: agents keep getting v${pinned}`,
            }}
            action={rollback.bind(null, version)}
          />
        )}
      </div>
    </td>
  );
}
