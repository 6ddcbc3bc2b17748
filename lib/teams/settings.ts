import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { teams } from "@/db/schema";
import type { ListingSettings } from "../contracts/settings";
import { recordListingSnapshot } from "../listing/snapshots";
import type { CatalogCache } from "../skills/catalog-cache";
import type { TeamId } from "./teams";

/** A lead changes the team's listing `cap`, `descMax` or `loadHint`; the new size is recorded. */
export async function updateListingSettings(db: Db, catalogs: CatalogCache, teamId: TeamId, settings: ListingSettings): Promise<void> {
  await db
    .update(teams)
    .set({ listingCap: settings.cap, descMax: settings.descMax, loadHint: settings.loadHint })
    .where(eq(teams.id, teamId));
  await recordListingSnapshot(db, catalogs, teamId, `settings: cap ${settings.cap}, descMax ${settings.descMax}`);
}
