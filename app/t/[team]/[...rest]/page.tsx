import { notFound } from "next/navigation";
import { requireMember } from "@/lib/pages/member";
import type { TeamPageProps } from "../team-page";

/** Any other address inside a team: the team's own not-found, under its navigation (Next sends unmatched paths to the root one). */
export default async function UnknownTeamPage({ params }: TeamPageProps<{ rest: string[] }>) {
  const { team: slug, rest } = await params;
  await requireMember(slug, `/t/${slug}/${rest.join("/")}`);
  notFound();
}
