import type { Metadata } from "next";
import { requireMember } from "@/lib/pages/member";
import { roleAtLeast } from "@/lib/auth/scopes";
import { NewSkillForm } from "@/components/new-skill-form";
import { createSkillAction } from "./actions";
import { teamOverview, type InvalidFolderRow, type TeamOverview } from "@/lib/overview/overview";
import { DEFAULT_QUERY, parseTableQuery, tableSearch, type TableQuery } from "@/lib/overview/table";
import { COSTLY_FACTOR } from "@/lib/usage/production";
import { SkillHealthTable } from "@/components/skill-health-table";
import { PageHeader } from "@/components/ui/page-header";
import { Stat } from "@/components/ui/stat";
import { awaitingApproval } from "@/lib/evolution/amendments";
import { TeamApprovalQueue } from "./team-approval-queue";
import { UnlistedActivationsNotice } from "./unlisted-activations";
import type { TeamPageProps } from "./team-page";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage({ params, searchParams }: TeamPageProps) {
  const { team: slug } = await params;
  const { app, team, role } = await requireMember(slug);
  const query = parseTableQuery(await searchParams);
  const [{ table, headline, invalid, diagnostics, unlisted }, awaiting] = await Promise.all([
    teamOverview(app, team, query),
    awaitingApproval(app, team, 5),
  ]);
  return (
    <div className="space-y-6">
      <PageHeader title={team.name} description="Skill health: what agents see, what they load, and what needs attention." />
      <HeadlineFigures slug={slug} headline={headline} />
      <TeamApprovalQueue slug={slug} awaiting={awaiting} autoPromote={team.autoPromote} role={role} hasModel={app.model !== null} />
      {invalid.length > 0 && <InvalidFolders invalid={invalid} />}
      {diagnostics.length > 0 && (
        <section className="rounded-lg border border-amber-200 bg-amber-50 p-4" aria-label="Diagnostics">
          <h2 className="mb-2 text-sm font-semibold text-amber-900">Diagnostics</h2>
          <ul className="space-y-1 font-mono text-xs text-amber-900">
            {diagnostics.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </section>
      )}
      <UnlistedActivationsNotice unlisted={unlisted} />
      <SkillHealthTable team={slug} table={table} query={query} />
      {roleAtLeast(role, "editor") && <NewSkillForm descMax={team.descMax} action={createSkillAction.bind(null, slug)} />}
    </div>
  );
}

/** "+3 points vs the run before": a change in a rate, in whole points. */
function pointsVsBefore(now: number, before: number): string {
  return `${now >= before ? "+" : ""}${Math.round((now - before) * 100)} points vs the run before`;
}

function HeadlineFigures({ slug, headline }: { slug: string; headline: TeamOverview["headline"] }) {
  const trend = headline.viewsThisWeek - headline.viewsLastWeek;
  const { activation, activationBefore } = headline;
  // Each flag's figure opens the table filtered to the skills it counts.
  const shown = (show: TableQuery["show"]) => `/t/${slug}${tableSearch({ ...DEFAULT_QUERY, show })}#skill-health`;
  return (
    <section className="grid grid-cols-2 gap-4 md:grid-cols-4 lg:grid-cols-5" aria-label="Headline figures">
      <Stat label="In the listing" value={String(headline.listed)} note={`${headline.drafts} draft(s) waiting`} />
      <Stat
        label="Listing size"
        value={`${headline.listingChars.toLocaleString("en-US")} / ${headline.listingCap.toLocaleString("en-US")}`}
        note={headline.truncated ? "truncated: see the budget" : "fits the cap"}
        tone={headline.truncated ? "warn" : "good"}
      />
      <Stat
        label="Views this week"
        value={String(headline.viewsThisWeek)}
        note={`${trend >= 0 ? "+" : ""}${trend} vs the week before`}
        tone={trend >= 0 ? "good" : "warn"}
      />
      <Stat
        label="Activation"
        value={activation === null ? "—" : `${Math.round(activation * 100)}%`}
        note={
          activation === null
            ? "no activation run yet"
            : activationBefore === null
              ? "latest run"
              : pointsVsBefore(activation, activationBefore)
        }
        tone={activation !== null && activationBefore !== null && activation < activationBefore ? "warn" : "good"}
      />
      <Stat
        label="Never loaded"
        value={String(headline.neverLoaded)}
        note="clutter in the routing decision"
        tone={headline.neverLoaded > 0 ? "warn" : "good"}
        href={shown("never")}
      />
      <Stat
        label="Only typed"
        value={String(headline.typedOnly)}
        note="people type /name; the model never chooses them"
        tone={headline.typedOnly > 0 ? "warn" : "good"}
        href={shown("typed")}
      />
      <Stat
        label="Loaded, then failing"
        value={String(headline.loadedThenFailing)}
        note="tools fail more often than with no skill loaded"
        tone={headline.loadedThenFailing > 0 ? "warn" : "good"}
        href={shown("loadedThenFailing")}
      />
      <Stat
        label="Costly"
        value={String(headline.costly)}
        note={`prompts cost ${COSTLY_FACTOR}× or more what prompts with no skill cost`}
        tone={headline.costly > 0 ? "warn" : "good"}
        href={shown("costly")}
      />
      <Stat label="Lint findings" value={String(headline.lintFindings)} tone={headline.lintFindings > 0 ? "warn" : "good"} />
      <Stat label="Collisions" value={String(headline.collisions)} tone={headline.collisions > 0 ? "warn" : "good"} />
    </section>
  );
}

/** Folders that break a hard rule of the format, each with every error and what keeps serving meanwhile. */
function InvalidFolders({ invalid }: { invalid: InvalidFolderRow[] }) {
  return (
    <section className="rounded-lg border border-red-200 bg-red-50 p-4" aria-labelledby="invalid-folders">
      <h2 id="invalid-folders" className="mb-1 text-sm font-semibold text-red-900">
        Invalid skill folders ({invalid.length})
      </h2>
      <p className="mb-3 text-xs text-red-900">
        These folders break a hard rule of the Agent Skills format and are not served as they are. Fix them in the repository and sync
        again; <code>skillgate sync --strict</code> refuses such a tree in CI.
      </p>
      <ul className="space-y-3">
        {invalid.map((folder) => (
          <li key={folder.folder} className="text-sm text-red-950">
            <span className="font-mono font-semibold">{folder.folder}</span>{" "}
            <span className="text-xs">{folder.serving === null ? "· not served" : `· v${folder.serving} keeps serving until fixed`}</span>
            <ul className="mt-1 list-disc space-y-0.5 pl-5 font-mono text-xs break-words">
              {folder.errors.map((error) => (
                <li key={error}>{error}</li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}
