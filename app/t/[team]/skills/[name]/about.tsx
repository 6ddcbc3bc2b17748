import Link from "next/link";
import type { LearnedRow } from "@/lib/learned/store";
import type { SkillDetail } from "@/lib/pages/skill-page";
import { ActionButton } from "@/components/action-button";
import { Card } from "@/components/ui/card";
import { restoreAction } from "./actions";
import { When } from "@/components/ui/when";

/** The skill's name, where it comes from, its version and tier, its description and the annotation agents get. */
export function SkillHeader({ detail }: { detail: SkillDetail }) {
  const { content } = detail;
  const current = detail.versions.find((v) => v.version === content.version);
  return (
    <header>
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="text-2xl font-semibold">{content.name}</h1>
        <Badge>{content.annotationSource === "file" ? `file ${content.skill.folder}` : content.annotationSource}</Badge>
        <Badge>v{content.version}</Badge>
        {current && <Badge tone={current.tier === "verified" ? "good" : "plain"}>{current.tier}</Badge>}
      </div>
      <AgentsGetLine detail={detail} />
      <p className="mt-1 text-slate-700">{content.skill.description}</p>
      <p className="mt-2 font-mono text-xs text-slate-500" data-testid="annotation">
        {detail.annotation}
      </p>
      {detail.shadowed.length > 0 && (
        <p className="mt-1 text-sm text-amber-800">Also defined, and shadowed by this one: {detail.shadowed.join(", ")}.</p>
      )}
    </header>
  );
}

/**
 * What agents get and why, in one line (docs/learned-skills.md#one-served-version): the version a reader that asks for no label gets —
 * pinned (by whom, when, why) or the latest — then each label and its version, then the latest
 * when agents get another one.
 */
function AgentsGetLine({ detail }: { detail: SkillDetail }) {
  const { content, agents } = detail;
  const { served, pin, labels, latest } = agents;
  return (
    <p className="mt-2 text-sm font-medium text-slate-900" data-testid="agents-get">
      Agents get v{served.version}
      {served.why === "pinned" ? (
        <>
          {" "}
          (pinned
          {pin && (
            <>
              {" "}
              by {pin.by} <When at={pin.at} />
            </>
          )}
          {pin?.reason && <>: “{pin.reason}”</>})
        </>
      ) : (
        <>, {whyLatest(content)}</>
      )}
      {labels.map(({ label, version }) => (
        <span key={label} className="font-normal text-slate-700">
          {" · "}
          {label} → v{version}
        </span>
      ))}
      {latest !== served.version && <span className="font-normal text-slate-700"> · latest v{latest}</span>}
    </p>
  );
}

/** Why the latest version is the one agents get, by where the skill comes from. */
function whyLatest(content: SkillDetail["content"]): string {
  if (content.annotationSource === "draft") return "a draft: not in the listing, loaded only by name";
  if (content.annotationSource === "builtin") return "shipped with this deployment";
  if (content.skill.scope === "global") return `read from ${content.skill.folder}`;
  if (content.skill.scope === "workspace") return `the latest sync of ${content.skill.folder}`;
  return "the latest";
}

function Badge({ children, tone = "plain" }: { children: React.ReactNode; tone?: "plain" | "good" }) {
  return (
    <span
      className={`rounded px-2 py-0.5 text-xs font-medium ${tone === "good" ? "bg-emerald-100 text-emerald-800" : "bg-slate-100 text-slate-700"}`}
    >
      {children}
    </span>
  );
}

/** A learned skill's record: where it came from and why, and what it was forked from or into. */
export function ProvenanceAndLineage({ slug, learned, forks }: { slug: string; learned: LearnedRow; forks: SkillDetail["forks"] }) {
  return (
    <section className="grid gap-4 md:grid-cols-2">
      <Card aria-label="Provenance" title="Provenance">
        <dl className="grid grid-cols-[8rem_1fr] gap-y-1 text-sm" data-testid="provenance">
          <dt className="text-slate-500">Source</dt>
          <dd>
            {learned.sourceKind}
            {learned.sourceRef ? ` (${learned.sourceRef})` : ""}
          </dd>
          <dt className="text-slate-500">Created</dt>
          <dd>
            <When at={learned.createdAt} />
          </dd>
          <dt className="text-slate-500">Reason</dt>
          <dd>{learned.reason ?? "—"}</dd>
          <dt className="text-slate-500">Status</dt>
          <dd>{learned.status}</dd>
        </dl>
      </Card>
      <Card aria-label="Lineage" title="Lineage">
        <div className="text-sm" data-testid="lineage">
          {learned.forkedFrom ? <p>Forked from {lineageLink(learned.forkedFrom, slug)}</p> : <p className="text-slate-500">Not a fork.</p>}
          {forks.length > 0 && (
            <p className="mt-1">
              Forks:{" "}
              {forks.map((fork, i) => (
                <span key={fork.name}>
                  {i > 0 && ", "}
                  <Link className="text-indigo-700 hover:underline" href={`/t/${slug}/skills/${fork.name}`}>
                    {fork.name}
                  </Link>
                </span>
              ))}
            </p>
          )}
        </div>
      </Card>
    </section>
  );
}

/** `team/name@vN`: a link when it is this team's skill. */
function lineageLink(forkedFrom: string, slug: string) {
  const match = /^([^/]+)\/([^@]+)@v(\d+)$/.exec(forkedFrom);
  if (!match || match[1] !== slug) return <span className="font-mono">{forkedFrom}</span>;
  return (
    <Link className="font-mono text-indigo-700 hover:underline" href={`/t/${slug}/skills/${match[2]}?to=${match[3]}`}>
      {forkedFrom}
    </Link>
  );
}

/** The learned forks of a skill that is not learned itself (one from a repository, say), if it has any. */
export function ForksLine({ forks }: { forks: SkillDetail["forks"] }) {
  if (forks.length === 0) return null;
  return (
    <p className="text-sm" data-testid="lineage">
      Forks: {forks.map((fork) => fork.name).join(", ")}
    </p>
  );
}

export function ArchivedSkill({ slug, archived, canRestore }: { slug: string; archived: LearnedRow; canRestore: boolean }) {
  const { name } = archived;
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">{name}</h1>
      <p className="rounded-md bg-amber-50 p-3 text-sm text-amber-900" data-testid="archived">
        This learned skill was archived {archived.archivedAt && <When at={archived.archivedAt} />} at v{archived.currentVersion}. It is not
        in the listing and agents cannot load it.
      </p>
      {canRestore && (
        <ActionButton
          label="Restore"
          tone="primary"
          confirm={`Restore "${name}" as it was before it was archived?`}
          action={restoreAction.bind(null, slug, name)}
        />
      )}
    </div>
  );
}
