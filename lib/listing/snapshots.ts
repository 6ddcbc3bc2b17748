import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { listingSnapshots } from "@/db/schema";
import type { CatalogCache } from "../skills/catalog-cache";
import { getTeam, type TeamId } from "../teams/teams";

/**
 * The listing's size as the catalog changed (the budget page's history). Taken after a change
 * has committed, with the team's own settings.
 */
export async function recordListingSnapshot(db: Db, catalogs: CatalogCache, teamId: TeamId, cause: string): Promise<void> {
  const team = await getTeam(db, teamId);
  const { figures } = await catalogs.listing(team, { cap: team.listingCap, descMax: team.descMax, loadHint: team.loadHint });
  await db.insert(listingSnapshots).values({
    teamId,
    cause,
    chars: figures.chars,
    cap: figures.cap,
    total: figures.total,
    shown: figures.shown,
    droppedDescriptions: figures.droppedDescriptions,
    droppedEntries: figures.droppedEntries,
  });
}

export async function listingHistory(db: Db, teamId: TeamId, limit = 200) {
  const rows = await db
    .select()
    .from(listingSnapshots)
    .where(eq(listingSnapshots.teamId, teamId))
    .orderBy(asc(listingSnapshots.takenAt), asc(listingSnapshots.id));
  return rows.slice(-limit);
}
