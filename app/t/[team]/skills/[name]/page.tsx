import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireMember } from "@/lib/pages/member";
import { roleAtLeast } from "@/lib/auth/scopes";
import { isAppError } from "@/lib/errors";
import { markdownToHtml } from "@/lib/skills/markdown-html";
import { parseSkillMd } from "@/lib/skills/skill-md";
import { isSkillName } from "@/lib/skills/name";
import { findArchivedLearned } from "@/lib/learned/store";
import { skillDetail } from "@/lib/pages/skill-page";
import { loadSkillContent } from "@/lib/skills/view";
import { latestVersionOf } from "@/lib/skills/catalog";
import type { LearnedRow } from "@/lib/learned/store";
import { ActionButton } from "@/components/skill/action-button";
import { BodyTabs } from "@/components/skill/body-tabs";
import { ForkForm } from "@/components/skill/fork-form";
import { SideBySide } from "@/components/side-by-side";
import { SkillEditor } from "@/components/skill/skill-editor";
import { VerifyForm } from "@/components/skill/verify-form";
import { VersionsTable } from "@/components/skill/versions-table";
import { VersionCaption } from "@/components/skill/version-caption";
import { AmendmentsPanel } from "@/components/skill/amendments-panel";
import { ObservationsPanel } from "@/components/skill/observations-panel";
import { observationQuery } from "@/lib/contracts/evolution";
import { diffQuery } from "@/lib/contracts/versions";
import { readSearchParams } from "@/lib/http/params";
import {
  archiveAction,
  forkAction,
  generateAmendmentAction,
  promoteAction,
  proposeAmendmentAction,
  restoreAction,
  rollbackAction,
  pinAction,
  unpinAction,
  saveSkillAction,
  verifyAction,
} from "./actions";
import { approveAmendmentAction, evaluateAmendmentAction, overrideAmendmentAction, rejectAmendmentAction } from "../../amendment-actions";

export async function generateMetadata({ params }: { params: Promise<{ name: string }> }): Promise<Metadata> {
  return { title: (await params).name };
}

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function SkillPage({ params, searchParams }: { params: Promise<{ team: string; name: string }>; searchParams: Search }) {
  const { team: slug, name } = await params;
  const member = await requireMember(slug, `/t/${slug}/skills/${name}`);
  if (!isSkillName(name)) notFound();
  const query = await searchParams;
  const wanted = readSearchParams(diffQuery, query);
  const observed = readSearchParams(observationQuery.pick({ outcome: true, category: true, version: true }), query);
  const bodyView = query.body === "raw" ? "raw" : "rendered";
  const detail = await skillDetail(member.app.db, member.app.catalogs, member.team, name, wanted, observed).catch((error: unknown) => {
    if (isAppError(error) && error.status === 404) return null;
    throw error;
  });
  const canEdit = roleAtLeast(member.role, "editor");
  if (!detail) {
    const archived = await findArchivedLearned(member.app.db, member.team.id, name);
    if (!archived) notFound();
    return <ArchivedSkill slug={slug} archived={archived} canRestore={roleAtLeast(member.role, "lead")} />;
  }

  const { content, learned } = detail;
  // Agents get the pinned version; people edit the latest, and a new version waits behind the pin (§10).
  const latest = latestVersionOf(content.skill);
  const editing = content.skill.pinned ? await loadSkillContent(member.app.db, member.app.catalogs, member.team, name, latest) : content;
  const isLearned = learned !== null;
  const current = detail.versions.find((v) => v.version === content.version);
  const compareTo = detail.compare && detail.versions.find((v) => v.version === detail.compare?.to);
  const { fields } = parseSkillMd(editing.frontmatter + editing.body);
  const editableTeams = member.teams.filter((m) => roleAtLeast(m.role, "editor")).map((m) => m.team.slug);
  return (
    <div className="space-y-6">
      <header>
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="text-2xl font-semibold">{content.name}</h1>
          <Badge>{content.annotationSource === "file" ? `file ${content.skill.folder}` : content.annotationSource}</Badge>
          <Badge>v{content.version}</Badge>
          {current && <Badge tone={current.tier === "verified" ? "good" : "plain"}>{current.tier}</Badge>}
        </div>
        <p className="mt-1 text-slate-700">{content.skill.description}</p>
        <p className="mt-2 font-mono text-xs text-slate-500" data-testid="annotation">
          {detail.annotation}
        </p>
        {detail.shadowed.length > 0 && <p className="mt-1 text-sm text-amber-800">Also defined, and shadowed by this one: {detail.shadowed.join(", ")}.</p>}
      </header>

      {isLearned && (
        <section className="grid gap-4 md:grid-cols-2">
          <div className="rounded-lg border border-slate-200 bg-white p-4" aria-label="Provenance">
            <h2 className="mb-2 font-semibold">Provenance</h2>
            <dl className="grid grid-cols-[8rem_1fr] gap-y-1 text-sm" data-testid="provenance">
              <dt className="text-slate-500">Source</dt>
              <dd>
                {learned.sourceKind}
                {learned.sourceRef ? ` (${learned.sourceRef})` : ""}
              </dd>
              <dt className="text-slate-500">Created</dt>
              <dd>{learned.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC</dd>
              <dt className="text-slate-500">Reason</dt>
              <dd>{learned.reason ?? "—"}</dd>
              <dt className="text-slate-500">Status</dt>
              <dd>{learned.status}</dd>
            </dl>
          </div>
          <div className="rounded-lg border border-slate-200 bg-white p-4" aria-label="Lineage">
            <h2 className="mb-2 font-semibold">Lineage</h2>
            <div className="text-sm" data-testid="lineage">
              {learned.forkedFrom ? <p>Forked from {lineageLink(learned.forkedFrom, slug)}</p> : <p className="text-slate-500">Not a fork.</p>}
              {detail.forks.length > 0 && (
                <p className="mt-1">
                  Forks: {detail.forks.map((fork, i) => (
                    <span key={fork.name}>
                      {i > 0 && ", "}
                      <Link className="text-indigo-700 hover:underline" href={`/t/${slug}/skills/${fork.name}`}>{fork.name}</Link>
                    </span>
                  ))}
                </p>
              )}
            </div>
          </div>
        </section>
      )}
      {!isLearned && detail.forks.length > 0 && (
        <p className="text-sm" data-testid="lineage">
          Forks: {detail.forks.map((fork) => fork.name).join(", ")}
        </p>
      )}

      {canEdit && (
        <section className="space-y-3 rounded-lg border border-slate-200 bg-white p-4" aria-label="Actions">
          <div className="flex flex-wrap items-start gap-3">
            {learned?.status === "draft" && (
              <ActionButton label="Promote" tone="primary" confirm={`Promote the draft "${name}"? It joins the listing every agent gets.`} action={promoteAction.bind(null, slug, name)} />
            )}
            {isLearned && (
              <ActionButton label="Archive" tone="danger" confirm={`Archive "${name}"? It leaves the listing; its history is kept and a lead can restore it.`} action={archiveAction.bind(null, slug, name)} />
            )}
          </div>
          <details>
            <summary className="cursor-pointer text-sm font-medium">Fork into a new learned skill</summary>
            <div className="mt-2">
              <ForkForm source={name} teams={editableTeams} current={slug} action={forkAction.bind(null, slug, name)} />
            </div>
          </details>
          {isLearned && (
            <details>
              <summary className="cursor-pointer text-sm font-medium">Set the verification tier of v{content.version}</summary>
              <div className="mt-2">
                <VerifyForm version={content.version} action={verifyAction.bind(null, slug, name)} />
              </div>
            </details>
          )}
        </section>
      )}
      <section className="rounded-lg border border-slate-200 bg-white p-4" aria-label="Body">
        <BodyTabs
          view={bodyView}
          hrefs={{ rendered: withQuery(query, { body: undefined }), raw: withQuery(query, { body: "raw" }) }}
          html={bodyView === "rendered" ? markdownToHtml(content.body) : null}
          raw={bodyView === "raw" ? content.frontmatter + content.body : null}
        />
      </section>

      {isLearned && canEdit && (
        <section className="rounded-lg border border-slate-200 bg-white p-4" aria-label="Edit">
          <h2 className="mb-2 font-semibold">Edit</h2>
          {content.skill.pinned && (
            <p className="mb-3 rounded-md bg-violet-50 px-3 py-2 text-sm text-violet-950" data-testid="pinned-banner">
              Pinned: agents get v{content.version} until a lead unpins it. You are editing the latest version, v{latest}; what you save
              becomes v{latest + 1}, which agents get once the skill is unpinned.
            </p>
          )}
          <SkillEditor
            name={name}
            version={editing.version}
            fields={fields as Record<string, unknown> & { name: string; description: string }}
            currentText={editing.frontmatter + editing.body}
            descMax={member.team.descMax}
            save={saveSkillAction.bind(null, slug, name)}
            propose={proposeAmendmentAction.bind(null, slug, name)}
          />
        </section>
      )}

      <section className="rounded-lg border border-slate-200 bg-white p-4" aria-label="Versions">
        <h2 className="mb-2 font-semibold">Versions</h2>
        <VersionsTable
          slug={slug}
          name={name}
          versions={detail.versions}
          evidence={detail.evidence}
          compare={detail.compare ? { from: detail.compare.from, to: detail.compare.to } : null}
          rollback={isLearned && roleAtLeast(member.role, "lead") ? rollbackAction.bind(null, slug, name, latest) : null}
          pinned={content.skill.pinned ? content.skill.version : null}
          pin={isLearned && roleAtLeast(member.role, "lead") ? pinAction.bind(null, slug, name) : null}
          unpin={isLearned && roleAtLeast(member.role, "lead") ? unpinAction.bind(null, slug, name) : null}
        />
        {detail.compare && (
          <div className="mt-4 scroll-mt-4" id="diff">
            {compareTo && <VersionCaption slug={slug} version={compareTo} />}
            <SideBySide rows={detail.compare.rows} left={`v${detail.compare.from}`} right={`v${detail.compare.to}`} />
          </div>
        )}
      </section>

      <section className="grid gap-4 md:grid-cols-2">
        <div className="rounded-lg border border-slate-200 bg-white p-4" aria-label="Lint">
          <h2 className="mb-2 font-semibold">Description lint</h2>
          {detail.lint.length === 0 ? (
            <p className="text-sm text-emerald-700">[lint] clean</p>
          ) : (
            <ul className="space-y-1 font-mono text-xs text-amber-800">
              {detail.lint.map((finding) => (
                <li key={finding.rule}>
                  [lint] {finding.rule}: {finding.message}
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-4" aria-label="Supporting files">
          <h2 className="mb-2 font-semibold">Supporting files</h2>
          {detail.files.length === 0 ? (
            <p className="text-sm text-slate-500">None.</p>
          ) : (
            <ul className="font-mono text-xs">
              {detail.files.map((file) => (
                <li key={file.path}>
                  {file.path} <span className="text-slate-500">({file.size.toLocaleString("en-US")} bytes)</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      </section>

      <section className="rounded-lg border border-slate-200 bg-white p-4" aria-label="Amendments">
        <h2 className="mb-2 font-semibold">Amendments</h2>
        <AmendmentsPanel
          slug={slug}
          amendments={detail.amendments}
          canEdit={canEdit}
          isLead={roleAtLeast(member.role, "lead")}
          hasModel={member.app.model !== null}
          appliesHere={isLearned}
          actions={{
            evaluate: evaluateAmendmentAction.bind(null, slug),
            approve: approveAmendmentAction.bind(null, slug),
            reject: rejectAmendmentAction.bind(null, slug),
            override: overrideAmendmentAction.bind(null, slug),
            generate: canEdit ? generateAmendmentAction.bind(null, slug, name) : null,
          }}
        />
      </section>

      <section className="rounded-lg border border-slate-200 bg-white p-4" aria-label="Observations">
        <h2 className="mb-2 font-semibold">Observations</h2>
        <ObservationsPanel rows={detail.observations} filter={observed} />
      </section>
    </div>
  );
}

function Badge({ children, tone = "plain" }: { children: React.ReactNode; tone?: "plain" | "good" }) {
  return <span className={`rounded px-2 py-0.5 text-xs font-medium ${tone === "good" ? "bg-emerald-100 text-emerald-800" : "bg-slate-100 text-slate-700"}`}>{children}</span>;
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

function ArchivedSkill({ slug, archived, canRestore }: { slug: string; archived: LearnedRow; canRestore: boolean }) {
  const { name } = archived;
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">{name}</h1>
      <p className="rounded-md bg-amber-50 p-3 text-sm text-amber-900" data-testid="archived">
        This learned skill was archived on {archived.archivedAt?.toISOString().slice(0, 10)} at v{archived.currentVersion}. It is not in the listing and agents cannot load it.
      </p>
      {canRestore && <ActionButton label="Restore" tone="primary" confirm={`Restore "${name}" as it was before it was archived?`} action={restoreAction.bind(null, slug, name)} />}
    </div>
  );
}

/** This page's URL with some query parameters changed (undefined removes one), for links that keep the rest. */
function withQuery(query: Record<string, string | string[] | undefined>, changes: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...query, ...changes })) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) params.append(key, one);
  }
  const search = params.toString();
  return search ? `?${search}` : "?";
}

