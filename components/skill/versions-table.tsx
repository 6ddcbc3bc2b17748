import type { ActionResult } from "@/lib/actions/result";
import type { VersionInfo } from "@/lib/learned/history";
import type { VersionEvidence } from "@/lib/skills/version-evidence";
import { ActionButton } from "./action-button";
import { authorLabel } from "./version-caption";

/** "3 of 6 · 50%": the count a rate rests on, then the rate; a dash when there is nothing to count. */
function share(part: number, whole: number): string {
  return whole === 0 ? "—" : `${part} of ${whole} · ${Math.round((part / whole) * 100)}%`;
}

/** Every version with its evidence (agent loads, recorded runs, activation recall); pick any two to compare side by side; a lead can roll back to any earlier one. */
export function VersionsTable({
  slug,
  name,
  versions,
  evidence,
  compare,
  rollback,
  pinned,
  pin,
  unpin,
}: {
  slug: string;
  name: string;
  versions: VersionInfo[];
  evidence: VersionEvidence[];
  compare: { from: number; to: number } | null;
  rollback: ((toVersion: number) => Promise<ActionResult>) | null;
  /** The version a lead pinned for agents, if any (§10). */
  pinned: number | null;
  pin: ((version: number) => Promise<ActionResult>) | null;
  unpin: (() => Promise<ActionResult>) | null;
}) {
  const current = versions[versions.length - 1]?.version;
  const evidenceOf = new Map(evidence.map((e) => [e.version, e]));
  return (
    <form action={`/t/${slug}/skills/${name}#diff`} method="get">
      <table className="w-full text-sm" data-testid="versions">
        <thead className="text-left text-xs uppercase text-slate-500">
          <tr>
            <th className="py-1 pr-2">Version</th>
            <th className="px-1 py-1">From</th>
            <th className="px-1 py-1">To</th>
            <th className="px-2 py-1">When (UTC)</th>
            <th className="px-2 py-1">Author</th>
            <th className="px-2 py-1">Reason</th>
            <th className="px-2 py-1">Tier</th>
            <th className="px-2 py-1 text-right" title="skill_view loads and harness-reported loads of this version">
              Agent loads
            </th>
            <th className="px-2 py-1 text-right" title="recorded runs (observations) of this version that succeeded">
              Runs succeeded
            </th>
            <th
              className="px-2 py-1 text-right"
              title="activation-run prompts expecting this skill that loaded it, while this version was listed"
            >
              Activation recall
            </th>
            <th className="py-1">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {[...versions].reverse().map((v) => {
            const proof = evidenceOf.get(v.version);
            return (
              <tr key={v.version} className="border-t border-slate-100" data-version={v.version}>
                <td className="py-1.5 pr-2 font-medium whitespace-nowrap">
                  v{v.version}
                  {v.revertOf !== null && <span className="ml-1 text-xs text-slate-500">(= v{v.revertOf})</span>}
                  {pinned === v.version && (
                    <span className="ml-1 rounded bg-violet-100 px-1.5 py-0.5 text-xs text-violet-900" data-testid="pinned">
                      pinned: agents get this one
                    </span>
                  )}
                  {v.version > 1 && (
                    <a
                      className="block text-xs font-normal text-indigo-700 underline"
                      href={`/t/${slug}/skills/${name}?from=${v.version - 1}&to=${v.version}#diff`}
                    >
                      diff with v{v.version - 1}
                    </a>
                  )}
                </td>
                <td className="px-1">
                  <input
                    type="radio"
                    name="from"
                    value={v.version}
                    defaultChecked={compare?.from === v.version}
                    aria-label={`compare from v${v.version}`}
                  />
                </td>
                <td className="px-1">
                  <input
                    type="radio"
                    name="to"
                    value={v.version}
                    defaultChecked={compare?.to === v.version}
                    aria-label={`compare to v${v.version}`}
                  />
                </td>
                <td className="px-2 whitespace-nowrap text-slate-600">{v.createdAt ? v.createdAt.slice(0, 16).replace("T", " ") : "—"}</td>
                <td className="px-2 text-slate-600">{authorLabel(v)}</td>
                <td className="px-2 text-slate-600">
                  {v.reason ?? "—"}
                  {v.evaluationId !== null && (
                    <a className="ml-1 text-indigo-700 hover:underline" href={`/t/${slug}/history/evaluations/${v.evaluationId}`}>
                      (evaluation #{v.evaluationId})
                    </a>
                  )}
                </td>
                <td className="px-2">{v.tier}</td>
                <td className="px-2 text-right whitespace-nowrap tabular-nums" data-evidence="views">
                  {proof?.views ?? 0}
                </td>
                <td className="px-2 text-right whitespace-nowrap tabular-nums" data-evidence="runs">
                  {share(proof?.runs.succeeded ?? 0, proof?.runs.total ?? 0)}
                </td>
                <td className="px-2 text-right whitespace-nowrap tabular-nums" data-evidence="recall">
                  {share(proof?.recall.loaded ?? 0, proof?.recall.expected ?? 0)}
                </td>
                <td className="space-x-1 pl-2 text-right whitespace-nowrap">
                  {pin && pinned !== v.version && (
                    <ActionButton
                      label={`Pin v${v.version}`}
                      confirm={`Serve v${v.version} to agents (skill_view and the listing) until you unpin it?`}
                      action={pin.bind(null, v.version)}
                    />
                  )}
                  {unpin && pinned === v.version && (
                    <ActionButton label="Unpin" confirm="Serve the latest version to agents again?" action={unpin} />
                  )}
                  {rollback && v.version !== current && (
                    <ActionButton
                      label={`Roll back to v${v.version}`}
                      confirm={`Make a new version with the content of v${v.version}? Nothing is deleted.`}
                      action={rollback.bind(null, v.version)}
                    />
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {versions.length > 1 && (
        <button className="mt-2 rounded-md border border-slate-300 px-3 py-1 text-sm hover:bg-slate-100">
          Compare the two chosen versions
        </button>
      )}
    </form>
  );
}
