import type { ActionResult } from "@/lib/actions/result";
import type { VersionInfo } from "@/lib/learned/history";
import { ActionButton } from "./action-button";

function authorLabel(version: VersionInfo): string {
  const { author } = version;
  if (author.kind === "person") return author.email ?? "a person";
  if (author.kind === "key") return `key ${author.keyName ?? author.keyId}${author.session ? ` · session ${author.session}` : ""}`;
  if (author.kind === "system") return "Skillgate (start-up)";
  return author.kind === "sync" ? "workspace sync" : "shipped with Skillgate";
}

/** Every version; pick any two to compare side by side; a lead can roll back to any earlier one. */
export function VersionsTable({
  slug,
  name,
  versions,
  compare,
  rollback,
  pinned,
  pin,
  unpin,
}: {
  slug: string;
  name: string;
  versions: VersionInfo[];
  compare: { from: number; to: number } | null;
  rollback: ((toVersion: number) => Promise<ActionResult>) | null;
  /** The version a lead pinned for agents, if any (§10). */
  pinned: number | null;
  pin: ((version: number) => Promise<ActionResult>) | null;
  unpin: (() => Promise<ActionResult>) | null;
}) {
  const current = versions[versions.length - 1]?.version;
  return (
    <form action={`/t/${slug}/skills/${name}`} method="get">
      <table className="w-full text-sm" data-testid="versions">
        <thead className="text-left text-xs uppercase text-slate-500">
          <tr>
            <th className="py-1">Version</th>
            <th className="py-1">From</th>
            <th className="py-1">To</th>
            <th className="py-1">When</th>
            <th className="py-1">Author</th>
            <th className="py-1">Reason</th>
            <th className="py-1">Tier</th>
            <th className="py-1" />
          </tr>
        </thead>
        <tbody>
          {[...versions].reverse().map((v) => (
            <tr key={v.version} className="border-t border-slate-100" data-version={v.version}>
              <td className="py-1.5 font-medium">
                v{v.version}
                {v.revertOf !== null && <span className="ml-1 text-xs text-slate-500">(= v{v.revertOf})</span>}
                {pinned === v.version && (
                  <span className="ml-1 rounded bg-violet-100 px-1.5 py-0.5 text-xs text-violet-900" data-testid="pinned">
                    pinned: agents get this one
                  </span>
                )}
              </td>
              <td>
                <input
                  type="radio"
                  name="from"
                  value={v.version}
                  defaultChecked={compare?.from === v.version}
                  aria-label={`compare from v${v.version}`}
                />
              </td>
              <td>
                <input
                  type="radio"
                  name="to"
                  value={v.version}
                  defaultChecked={compare?.to === v.version}
                  aria-label={`compare to v${v.version}`}
                />
              </td>
              <td className="text-slate-600">{v.createdAt ? v.createdAt.slice(0, 16).replace("T", " ") : "—"}</td>
              <td className="text-slate-600">{authorLabel(v)}</td>
              <td className="text-slate-600">
                {v.reason ?? "—"}
                {v.evaluationId !== null && (
                  <a className="ml-1 text-indigo-700 hover:underline" href={`/t/${slug}/history/evaluations/${v.evaluationId}`}>
                    (evaluation #{v.evaluationId})
                  </a>
                )}
              </td>
              <td>{v.tier}</td>
              <td className="space-x-1 text-right whitespace-nowrap">
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
          ))}
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
