import type { Metadata } from "next";
import { requireMember } from "@/lib/pages/member";
import { roleAtLeast } from "@/lib/auth/scopes";
import { activationOverview } from "@/lib/activation/overview";
import { RunForm } from "@/components/activation/run-form";
import { PageHeader } from "@/components/ui/page-header";
import { Section } from "@/components/ui/section";
import { startRunAction } from "./actions";
import type { TeamPageProps } from "../team-page";
import { BuildFromProduction, ProductionBesideRecall } from "./production";
import { HeadlineFigures, LoadedTogether, NeverLoaded, PromptSets, RecallPerSkill, RunsOverTime, RunsSection } from "./sections";

export const metadata: Metadata = { title: "Activation" };

type Query = Record<string, string | undefined>;

/** The two runs `?a=&b=` asks to compare, when both are run ids. */
function chosenRuns(query: Query): { a: number; b: number } | undefined {
  const a = Number(query.a);
  const b = Number(query.b);
  return Number.isInteger(a) && Number.isInteger(b) && a > 0 && b > 0 ? { a, b } : undefined;
}

export default async function ActivationPage({ params, searchParams }: TeamPageProps<object, Query>) {
  const { team: slug } = await params;
  const query = await searchParams;
  const member = await requireMember(slug, `/t/${slug}/activation`);
  const compare = chosenRuns(query);
  const view = await activationOverview(member.app, member.team, compare);
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
        <RecallPerSkill latest={view.latest} />
      </section>

      <ProductionBesideRecall slug={slug} view={view} />

      <RunsSection slug={slug} view={view} compare={compare} />

      <section className="grid gap-4 lg:grid-cols-2">
        <NeverLoaded slug={slug} names={view.usage.neverLoaded} />
        <LoadedTogether pairs={view.usage.coLoaded} />
      </section>

      {canRun && <BuildFromProduction slug={slug} />}
      <PromptSets slug={slug} sets={view.promptSets} canEdit={canRun} />
    </div>
  );
}
