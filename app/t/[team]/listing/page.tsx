import type { Metadata } from "next";
import { requireMember } from "@/lib/pages/member";
import { listingBudget } from "@/lib/listing/listing";
import { BudgetBar } from "@/components/budget-bar";
import { CHART_COLORS, SEGMENT_COLORS } from "@/components/ui/chart-theme";
import { ListingHistoryChart } from "@/components/listing-history-chart";
import { PageHeader } from "@/components/ui/page-header";
import { Section } from "@/components/ui/section";
import type { TeamPageProps } from "../team-page";
import { listingPageQuery } from "./query";
import { ListingFigures, WhatIfForm, WhatWasCut } from "./sections";

export const metadata: Metadata = { title: "Listing budget" };

export default async function ListingPage({ params, searchParams }: TeamPageProps) {
  const { team: slug } = await params;
  const { app, team } = await requireMember(slug, `/t/${slug}/listing`);
  const query = listingPageQuery(await searchParams);
  const budget = await listingBudget(app.db, app.catalogs, team, query.whatIf);
  const { listing, settings } = budget;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Listing budget"
        description={`The exact text agents put in their system prompt, and how its ${listing.figures.cap.toLocaleString("en-US")}-character cap is spent.`}
      />
      <WhatIfForm slug={slug} settings={settings} team={team} error={query.error} />
      <ListingFigures listing={listing} />

      <Section title="The cap by group">
        <BudgetBar segments={budget.segments} cap={listing.figures.cap} />
        <ul className="mt-2 flex flex-wrap gap-4 text-sm text-slate-600" data-testid="segments">
          {budget.segments.map((segment) => (
            <li key={segment.key} data-segment={segment.key} className="flex items-center gap-1.5">
              <span
                aria-hidden
                className="inline-block size-3 rounded-sm"
                style={{ backgroundColor: SEGMENT_COLORS[segment.key] ?? CHART_COLORS.muted }}
              />
              {segment.label}: <span className="tabular-nums">{segment.chars.toLocaleString("en-US")}</span>
            </li>
          ))}
        </ul>
      </Section>

      <WhatWasCut slug={slug} budget={budget} query={query} />

      <Section title="The listing as agents get it">
        <pre
          data-testid="listing-text"
          tabIndex={0}
          aria-label="The listing text"
          className="overflow-x-auto whitespace-pre rounded-md bg-slate-900 p-4 font-mono text-xs leading-relaxed text-slate-100"
        >
          {listing.text}
        </pre>
      </Section>

      <Section title="Size over time">
        {budget.history.length === 0 ? (
          <p className="text-sm text-slate-500">No catalog changes recorded yet.</p>
        ) : (
          <ListingHistoryChart points={budget.history} />
        )}
      </Section>
    </div>
  );
}
