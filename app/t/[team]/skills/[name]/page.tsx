import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { requireMember, type Member } from "@/lib/pages/member";
import { roleAtLeast } from "@/lib/auth/scopes";
import { isAppError } from "@/lib/errors";
import { isSkillName } from "@/lib/skills/name";
import { findArchivedLearned } from "@/lib/learned/store";
import { recentFailures } from "@/lib/evolution/amendments";
import { skillDetail } from "@/lib/pages/skill-page";
import { loadSkillContent } from "@/lib/skills/view";
import { latestVersionOf } from "@/lib/skills/catalog";
import { observationQuery } from "@/lib/contracts/evolution";
import { diffQuery } from "@/lib/contracts/versions";
import { readSearchParams } from "@/lib/http/params";
import { publicOrigin } from "@/lib/http/origin";
import { ActionMessageSlot } from "@/components/action-message";
import { ObservationsPanel } from "@/components/skill/observations-panel";
import { Section } from "@/components/ui/section";
import { diffViewChoice } from "@/components/diff/view-choice";
import type { TeamPageProps } from "../../team-page";
import { ArchivedSkill, ForksLine, ProvenanceAndLineage, SkillHeader } from "./about";
import { ProductionSection } from "./production";
import { AmendmentsSection, BodySection, DescriptionLint, EditSection, SkillActions, SupportingFiles, VersionsSection } from "./sections";

export async function generateMetadata({ params }: { params: Promise<{ name: string }> }): Promise<Metadata> {
  return { title: (await params).name };
}

/** A skill this team no longer serves is looked for among its archived learned skills (null), anything else thrown on. */
function nullOn404(error: unknown): null {
  if (isAppError(error) && error.status === 404) return null;
  throw error;
}

/**
 * What the page shows as its query asks (two versions compared, observations filtered): the skill's
 * detail, null when the team no longer serves it; and whether it has failed runs an amendment can be
 * generated from, read only for someone who could ask for one.
 */
async function readSkill({ app, team }: Member, name: string, query: Awaited<TeamPageProps["searchParams"]>, canEdit: boolean) {
  const wanted = readSearchParams(diffQuery, query);
  const observed = readSearchParams(observationQuery.pick({ outcome: true, category: true, version: true, source: true }), query);
  const [detail, failures] = await Promise.all([
    skillDetail(app.db, app.catalogs, team, name, wanted, observed).catch(nullOn404),
    canEdit && app.model ? recentFailures(app.db, team.id, name) : [],
  ]);
  return { detail, observed, failuresSeen: failures.length > 0 };
}

export default async function SkillPage({ params, searchParams }: TeamPageProps<{ name: string }>) {
  const { team: slug, name } = await params;
  const member = await requireMember(slug, `/t/${slug}/skills/${name}`);
  if (!isSkillName(name)) notFound();
  const query = await searchParams;
  const { app, team } = member;
  const [canEdit, isLead] = [roleAtLeast(member.role, "editor"), roleAtLeast(member.role, "lead")];
  const { detail, observed, failuresSeen } = await readSkill(member, name, query, canEdit);
  if (!detail) {
    const archived = await findArchivedLearned(app.db, team.id, name);
    if (!archived) notFound();
    return (
      <ActionMessageSlot>
        <ArchivedSkill slug={slug} archived={archived} canRestore={isLead} />
      </ActionMessageSlot>
    );
  }

  const { content, learned } = detail;
  // Agents get the pinned version; people edit the latest, and a new version waits behind the pin (docs/learned-skills.md#pins).
  const latest = latestVersionOf(content.skill);
  const editing = content.skill.pinned ? await loadSkillContent(app.db, app.catalogs, team, name, latest) : content;
  const path = `/t/${slug}/skills/${name}`;
  const editableTeams = member.teams.filter((m) => roleAtLeast(m.role, "editor")).map((m) => m.team.slug);
  // One slot at the top of both pages: archive and restore swap one page for the other, and their message stays.
  return (
    <ActionMessageSlot>
      <div className="space-y-6">
        <SkillHeader detail={detail} />
        {learned ? <ProvenanceAndLineage slug={slug} learned={learned} forks={detail.forks} /> : <ForksLine forks={detail.forks} />}
        {canEdit && <SkillActions slug={slug} name={name} learned={learned} version={content.version} editableTeams={editableTeams} />}
        <BodySection query={query} content={content} />
        {learned && canEdit && (
          <EditSection
            slug={slug}
            name={name}
            served={content}
            editing={editing}
            latest={latest}
            descMax={team.descMax}
            diffView={diffViewChoice(path, query)}
          />
        )}
        <VersionsSection
          slug={slug}
          name={name}
          detail={detail}
          latest={latest}
          lead={learned !== null && isLead ? { reasonRequired: team.requireReasons } : null}
          diffView={diffViewChoice(path, query, "diff")}
        />
        <ProductionSection
          slug={slug}
          name={name}
          production={detail.production}
          isLead={isLead}
          origin={publicOrigin(await headers()).origin}
        />
        <section className="grid gap-4 md:grid-cols-2">
          <DescriptionLint findings={detail.lint} />
          <SupportingFiles files={detail.files} />
        </section>
        <AmendmentsSection
          slug={slug}
          name={name}
          amendments={detail.amendments}
          canEdit={canEdit}
          isLead={isLead}
          hasModel={app.model !== null}
          failuresSeen={failuresSeen}
          appliesHere={learned !== null}
        />
        <Section aria-label="Observations" title="Observations">
          <ObservationsPanel rows={detail.observations} filter={observed} />
        </Section>
      </div>
    </ActionMessageSlot>
  );
}
