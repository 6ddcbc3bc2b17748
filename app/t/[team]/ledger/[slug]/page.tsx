import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireMember } from "@/lib/pages/member";
import { isAppError } from "@/lib/errors";
import { parseLedgerSlug } from "@/lib/ledger/append";
import { ledgerDetail, type LedgerDetail } from "@/lib/ledger/detail";
import { PageHeader } from "@/components/ui/page-header";
import { Stat } from "@/components/ui/stat";
import { TextDetails } from "@/components/ui/text-details";
import type { TeamPageProps } from "../../team-page";
import { OpenPredictions, Timeline } from "./timeline";

export async function generateMetadata({ params }: { params: Promise<{ slug: string }> }): Promise<Metadata> {
  return { title: `sci.${(await params).slug}/ledger` };
}

export default async function LedgerPlanPage({ params }: TeamPageProps<{ slug: string }>) {
  const { team: teamSlug, slug: raw } = await params;
  const { app, team } = await requireMember(teamSlug, `/t/${teamSlug}/ledger/${raw}`);
  let slug;
  try {
    slug = parseLedgerSlug(raw);
  } catch (error) {
    if (isAppError(error)) notFound();
    throw error;
  }
  const detail = await ledgerDetail(app.db, team.id, slug);
  if (!detail) notFound();
  return (
    <div className="space-y-6">
      <PageHeader back={{ href: `/t/${teamSlug}/ledger`, label: "All plans" }} title={<span className="font-mono">{detail.key}</span>}>
        {detail.skill && (
          <p className="text-sm text-slate-600">
            Exercises{" "}
            <Link className="text-indigo-700 hover:underline" href={`/t/${teamSlug}/skills/${detail.skill}`}>
              {detail.skill}
            </Link>
          </p>
        )}
      </PageHeader>
      <PlanFigures detail={detail} />
      {detail.open.length > 0 && <OpenPredictions open={detail.open} />}
      <Timeline items={detail.timeline} />
      <TextDetails summary="The ledger as agents list it" testId="list-text" text={detail.listText} />
    </div>
  );
}

function PlanFigures({ detail }: { detail: LedgerDetail }) {
  const judged = detail.verdicts.confirmed + detail.verdicts.refuted + detail.verdicts.inconclusive;
  return (
    <section className="grid grid-cols-2 gap-4 md:grid-cols-4" aria-label="Figures">
      <Stat label="Records" value={String(detail.records.length)} />
      <Stat
        label="Open predictions"
        value={String(detail.open.length)}
        tone={detail.open.length > 0 ? "warn" : "good"}
        note={detail.open.length > 0 ? "the finishing gate is closed" : "the finishing gate is clear"}
      />
      <Stat
        label="Pass rate"
        value={judged === 0 ? "—" : `${Math.round((detail.verdicts.confirmed / judged) * 100)}%`}
        note={`${judged} verdict(s)`}
      />
      <Stat label="Refuted" value={String(detail.verdicts.refuted)} />
    </section>
  );
}
