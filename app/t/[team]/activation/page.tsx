import type { Metadata } from "next";
import { requireMember } from "@/lib/pages/member";
import { roleAtLeast } from "@/lib/auth/scopes";
import { activationOverview, type ActivationQuery } from "@/lib/activation/overview";
import { pageParam } from "@/lib/paged";
import { RunForm } from "@/components/activation/run-form";
import { PageHeader } from "@/components/ui/page-header";
import { Section } from "@/components/ui/section";
import { startRunAction } from "./actions";
import type { TeamPageProps } from "../team-page";
import { BuildFromProduction, ProductionBesideRecall } from "./production";
import {
  HeadlineFigures,
  LoadedTogether,
  NeverLoaded,
  PromptSets,
  RecallPerSkill,
  RunsOverTime,
  RunsSection,
  type ListHref,
} from "./sections";

export const metadata: Metadata = { title: "Activation" };

type Query = Record<string, string | undefined>;

/** The two runs `?a=&b=` asks to compare, when both are run ids. */
function chosenRuns(query: Query): { a: number; b: number } | undefined {
  const a = Number(query.a);
  const b = Number(query.b);
  return Number.isInteger(a) && Number.isInteger(b) && a > 0 && b > 0 ? { a, b } : undefined;
}

/** The lists' pages and the runs to compare, from the address; anything else opens the first page. */
function activationQuery(query: Query): ActivationQuery {
  return {
    compare: chosenRuns(query),
    recall: pageParam(query.recall),
    never: pageParam(query.never),
    pairs: pageParam(query.pairs),
    set: query.set || undefined,
  };
}

/** The page's address with one list turned to `page`, the other lists and the comparison kept, scrolled to that list. */
function listHref(slug: string, query: Query): ListHref {
  return (list, page, anchor) => {
    const kept = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
    if (page === 1) kept.delete(list);
    else kept.set(list, String(page));
    const search = kept.toString();
    return `/t/${slug}/activation${search ? `?${search}` : ""}#${anchor}`;
  };
}

export default async function ActivationPage({ params, searchParams }: TeamPageProps<object, Query>) {
  const { team: slug } = await params;
  const query = await searchParams;
  const member = await requireMember(slug, `/t/${slug}/activation`);
  const asked = activationQuery(query);
  const compare = asked.compare;
  const view = await activationOverview(member.app, member.team, asked);
  const href = listHref(slug, query);
  const canRun = roleAtLeast(member.role, "editor");
  return (
    <div className="space-y-6">
      <PageHeader
        title="Activation"
        description="Does the agent load the right skill? Measured with eval runs against the listing agents get, and with real usage."
      />
      <HeadlineFigures view={view} />

      {canRun && (
        <Section title="Start a run">
          <RunForm
            promptSets={view.promptSets.map((s) => s.name)}
            hasModel={member.app.model !== null}
            start={startRunAction.bind(null, slug)}
          />
        </Section>
      )}

      <section className="grid gap-4 lg:grid-cols-2">
        <RunsOverTime finished={view.finished} />
        <RecallPerSkill latest={view.latest} recall={view.recall} href={href} />
      </section>

      <ProductionBesideRecall slug={slug} view={view} page={pageParam(query.production)} href={href} />

      <RunsSection slug={slug} view={view} compare={compare} />

      <section className="grid gap-4 lg:grid-cols-2">
        <NeverLoaded slug={slug} names={view.usage.neverLoaded} href={href} />
        <LoadedTogether pairs={view.usage.coLoaded} href={href} />
      </section>

      {canRun && <BuildFromProduction slug={slug} />}
      <PromptSets slug={slug} sets={view.promptSets} editing={view.editing} canEdit={canRun} />
    </div>
  );
}
