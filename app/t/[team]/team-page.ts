import { notFound } from "next/navigation";
import { isAppError } from "@/lib/errors";

/** What Next hands a team's page: the route's segments (the team's slug and any more), and the query. */
export interface TeamPageProps<Segments = object, Query = Record<string, string | string[] | undefined>> {
  params: Promise<{ team: string } & Segments>;
  searchParams: Promise<Query>;
}

/** For `.catch` on a lookup: what the team does not have (the lookup's 404) is the page's not-found; anything else goes on up. */
export function notFoundOn404(error: unknown): never {
  if (isAppError(error) && error.status === 404) notFound();
  throw error;
}

/** The skill page's side-by-side diff of a version against the one before it, scrolled into view. */
export function versionDiffHref(slug: string, skill: string, version: number): string {
  return `/t/${slug}/skills/${skill}?from=${version - 1}&to=${version}#diff`;
}
