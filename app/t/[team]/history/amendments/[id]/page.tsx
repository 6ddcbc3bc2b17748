import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireMember } from "@/lib/pages/member";
import { amendmentChange } from "@/lib/evolution/amendment-change";
import { AmendmentChangeView } from "@/components/history/amendment-change";
import { diffViewChoice } from "@/components/diff/view-choice";
import { AmendmentStateLine } from "@/components/history/amendment-state";
import { PageHeader } from "@/components/ui/page-header";
import { Section } from "@/components/ui/section";
import { notFoundOn404, type TeamPageProps } from "../../../team-page";
import { When } from "@/components/ui/when";
import { ActionMessageSlot } from "@/components/action-message";
import { ReproposeButton } from "@/components/history/repropose-button";
import { roleAtLeast } from "@/lib/auth/scopes";
import { reproposeAmendmentAction } from "../../../amendment-actions";
import { twoDecimals } from "@/lib/format";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: `Amendment #${(await params).id}` };
}

/** One amendment: the change it proposes, who proposed it and why, and every evaluation of it. */
export default async function AmendmentPage({ params, searchParams }: TeamPageProps<{ id: string }>) {
  const { team: slug, id } = await params;
  const { app, team, role } = await requireMember(slug, `/t/${slug}/history/amendments/${id}`);
  if (!/^\d{1,9}$/.test(id)) notFound();
  const change = await amendmentChange(app.db, app.catalogs, team, Number(id)).catch(notFoundOn404);
  const { amendment, entry } = change;
  // The slot is above the header: re-proposing changes what the header says.
  return (
    <ActionMessageSlot>
      <div className="space-y-6">
        <PageHeader
          back={{ href: `/t/${slug}/history`, label: "Promotion history" }}
          title={
            <>
              Amendment #{amendment.id} to{" "}
              <Link className="font-mono text-indigo-700 hover:underline" href={`/t/${slug}/skills/${amendment.skillName}`}>
                {amendment.skillName}
              </Link>
            </>
          }
        >
          <p className="mt-1 text-sm" data-testid="amendment-status">
            <AmendmentStateLine slug={slug} entry={entry} />
          </p>
          {entry.outdated && entry.current !== null && roleAtLeast(role, "editor") && (
            <div className="mt-2">
              <ReproposeButton
                amendmentId={amendment.id}
                current={entry.current}
                hasModel={app.model !== null}
                repropose={reproposeAmendmentAction.bind(null, slug, amendment.id)}
              />
            </div>
          )}
        </PageHeader>

        <Section headingId="amendment-evaluations" title="Evaluations">
          {change.evaluations.length === 0 ? (
            <p className="text-sm text-slate-600">
              Not evaluated yet: evaluate it from the skill page or with POST /api/v1/amendments/{amendment.id}/evaluate.
            </p>
          ) : (
            <ul className="space-y-1 text-sm">
              {change.evaluations.map((e) => (
                <li key={e.id} data-evaluation={e.id}>
                  <Link className="text-indigo-700 underline" href={`/t/${slug}/history/evaluations/${e.id}`}>
                    Evaluation #{e.id}
                  </Link>{" "}
                  · {e.status === "finished" ? e.verdict : e.status}
                  {e.delta !== null && ` (delta ${twoDecimals(e.delta, { signed: true })})`} · <When at={e.startedAt} />
                  {e.promotedVersion !== null && ` · promoted as v${e.promotedVersion}`}
                </li>
              ))}
            </ul>
          )}
        </Section>

        <AmendmentChangeView
          change={change}
          diffView={diffViewChoice(`/t/${slug}/history/amendments/${id}`, await searchParams, "amendment-change")}
        />
      </div>
    </ActionMessageSlot>
  );
}
