import Link from "next/link";
import { HISTORY_KINDS, type HistoryEvent } from "@/lib/evolution/history";
import { Section } from "@/components/ui/section";
import { versionDiffHref } from "../team-page";
import { When } from "@/components/ui/when";

const KIND_STYLE: Record<string, string> = {
  promoted: "bg-emerald-100 text-emerald-900",
  approved: "bg-emerald-100 text-emerald-900",
  rejected: "bg-red-100 text-red-900",
  pinned: "bg-violet-100 text-violet-900",
  unpinned: "bg-violet-100 text-violet-900",
  labelled: "bg-violet-100 text-violet-900",
  unlabelled: "bg-violet-100 text-violet-900",
  overridden: "bg-amber-100 text-amber-900",
  "rolled-back": "bg-red-100 text-red-900",
  evaluated: "bg-indigo-100 text-indigo-900",
  amended: "bg-sky-100 text-sky-900",
  verified: "bg-teal-100 text-teal-900",
};

/** A lead's decisions on what agents get, whose reason (docs/learned-skills.md#reasons) the line says. */
const DECISION_REASONS = new Set(["pinned", "unpinned", "labelled", "unlabelled", "rolled-back"]);

/** Events about a proposed change, not a version: they open the amendment, not a version's diff. */
const ABOUT_AN_AMENDMENT = new Set(["amended", "evaluated", "rejected"]);

/** The team's events, newest first, filtered by skill and kind in the query (a GET form, so the filter is in the address). */
export function EventsSection({
  slug,
  events,
  filter,
}: {
  slug: string;
  events: HistoryEvent[];
  filter: { skill: string | undefined; kind: string | undefined };
}) {
  return (
    <Section aria-label="Events">
      <form className="mb-3 flex flex-wrap items-end gap-3" method="get">
        <h2 className="mr-auto font-semibold">Events</h2>
        <label className="text-sm">
          Skill
          <input
            name="skill"
            defaultValue={filter.skill ?? ""}
            placeholder="any skill"
            className="mt-1 block w-48 rounded-md border border-slate-300 px-2 py-1 font-mono text-sm"
          />
        </label>
        <label className="text-sm">
          Kind
          <select name="kind" defaultValue={filter.kind ?? ""} className="mt-1 block rounded-md border border-slate-300 px-2 py-1 text-sm">
            <option value="">any kind</option>
            {HISTORY_KINDS.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </label>
        <button className="rounded-md border border-slate-300 px-3 py-1 text-sm hover:bg-slate-100">Filter</button>
      </form>
      {events.length === 0 ? (
        <p className="text-sm text-slate-500">No events match.</p>
      ) : (
        <ol className="space-y-2" data-testid="events">
          {events.map((event) => (
            <EventLine key={event.id} slug={slug} event={event} />
          ))}
        </ol>
      )}
    </Section>
  );
}

function EventLine({ slug, event }: { slug: string; event: HistoryEvent }) {
  const detail = event.detail as {
    evaluationId?: number;
    amendmentId?: number;
    verdict?: string;
    overrideReason?: string;
    revertOf?: number;
    reason?: string;
    tier?: string;
    status?: string;
    label?: string;
    from?: number | null;
    was?: number;
    pin?: { from: number | null; to: number };
    keptPin?: number;
  };
  return (
    <li
      className="flex flex-wrap items-baseline gap-2 border-b border-slate-100 pb-2 text-sm"
      data-event={event.kind}
      data-skill={event.skill}
    >
      <When className="w-36 shrink-0 text-xs text-slate-500" at={event.at} />
      <span className={`rounded px-1.5 py-0.5 text-xs font-semibold ${KIND_STYLE[event.kind] ?? "bg-slate-100 text-slate-800"}`}>
        {event.kind}
      </span>
      <Link className="font-mono text-indigo-700 hover:underline" href={`/t/${slug}/skills/${event.skill}`}>
        {event.skill}
      </Link>
      {event.version !== null && <span className="text-slate-600">v{event.version}</span>}
      {detail.verdict && <span>verdict {detail.verdict}</span>}
      {detail.revertOf !== undefined && <span>back to v{detail.revertOf}</span>}
      {detail.tier && <span>tier {detail.tier}</span>}
      {detail.label && (
        <span>
          label <code>{detail.label}</code>
          {typeof detail.from === "number" && ` moved from v${detail.from}`}
        </span>
      )}
      {event.kind === "pinned" && typeof detail.from === "number" && <span>moved from v{detail.from}</span>}
      {event.kind === "unpinned" && detail.was !== undefined && <span>was pinned to v{detail.was}</span>}
      {detail.pin && (
        <span>
          pin moved {detail.pin.from !== null && <>from v{detail.pin.from} </>}to v{detail.pin.to}
        </span>
      )}
      {detail.keptPin !== undefined && <span>pin kept on v{detail.keptPin}</span>}
      {detail.overrideReason && <span className="text-amber-900">reason: “{detail.overrideReason}”</span>}
      {DECISION_REASONS.has(event.kind) && detail.reason && <span className="text-slate-800">reason: “{detail.reason}”</span>}
      {event.version !== null && event.version > 1 && !ABOUT_AN_AMENDMENT.has(event.kind) && !detail.label && (
        <Link className="text-indigo-700 underline" href={versionDiffHref(slug, event.skill, event.version)}>
          diff v{event.version - 1} → v{event.version}
        </Link>
      )}
      {detail.amendmentId !== undefined && detail.amendmentId !== null && (
        <Link className="text-indigo-700 underline" href={`/t/${slug}/history/amendments/${detail.amendmentId}`}>
          amendment #{detail.amendmentId}
        </Link>
      )}
      {detail.evaluationId !== undefined && detail.evaluationId !== null && (
        <Link className="text-indigo-700 hover:underline" href={`/t/${slug}/history/evaluations/${detail.evaluationId}`}>
          (evaluation #{detail.evaluationId})
        </Link>
      )}
      <span className="ml-auto text-xs text-slate-500">by {event.actor}</span>
    </li>
  );
}
