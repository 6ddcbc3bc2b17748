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

type Headline = TeamOverview["headline"];

/** The figures that count skills needing attention, each opening the table filtered to them. */
const FLAGS: {
  label: string;
  count: "neverLoaded" | "typedOnly" | "loadedThenFailing" | "costly" | "lintFindings" | "collisions";
  note: string;
  show: TableQuery["show"];
}[] = [
  { label: "Never loaded", count: "neverLoaded", note: "clutter in the routing decision", show: "never" },
  { label: "Only typed", count: "typedOnly", note: "people type /name; the model never chooses them", show: "typed" },
  {
    label: "Loaded, then failing",
    count: "loadedThenFailing",
    note: "tools fail more often than with no skill loaded",
    show: "loadedThenFailing",
  },
  { label: "Costly", count: "costly", note: `prompts cost ${COSTLY_FACTOR}× or more what prompts with no skill cost`, show: "costly" },
  { label: "Lint findings", count: "lintFindings", note: "descriptions that keep agents from choosing a skill", show: "lint" },
  // A collision is a shadowed skill: the catalog says one line for each.
  { label: "Collisions", count: "collisions", note: "names more than one source holds; agents get one of each", show: "shadowed" },
];

function HeadlineFigures({ slug, headline }: { slug: string; headline: Headline }) {
  const trend = headline.viewsThisWeek - headline.viewsLastWeek;
  const { activation, activationBefore } = headline;
  // Each figure leads to what it counts: the table filtered to those skills, or the page that explains it.
  const shown = (change: Partial<TableQuery>) => `/t/${slug}${tableSearch({ ...DEFAULT_QUERY, ...change })}#skill-health`;
  return (
    <section className="grid grid-cols-2 gap-4 md:grid-cols-4 lg:grid-cols-5" aria-label="Headline figures">
      <Stat
        label="In the listing"
        value={String(headline.listed)}
        note={`${headline.drafts} draft(s) waiting`}
        href={shown({ show: "active" })}
      />
      <Stat
        label="Listing size"
        value={`${headline.listingChars.toLocaleString("en-US")} / ${headline.listingCap.toLocaleString("en-US")}`}
        note={headline.truncated ? "truncated: see the budget" : "fits the cap"}
        tone={headline.truncated ? "warn" : "good"}
        href={`/t/${slug}/listing`}
      />
      <Stat
        label="Views this week"
        value={String(headline.viewsThisWeek)}
        note={`${trend >= 0 ? "+" : ""}${trend} vs the week before`}
        tone={trend >= 0 ? "good" : "warn"}
        href={shown({ sort: "views7d", descending: true })}
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
        href={`/t/${slug}/activation`}
      />
      {FLAGS.map((flag) => (
        <Stat
          key={flag.show}
          label={flag.label}
          value={String(headline[flag.count])}
          note={flag.note}
          tone={headline[flag.count] > 0 ? "warn" : "good"}
          href={shown({ show: flag.show })}
        />
      ))}
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
