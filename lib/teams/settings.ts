import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { teams } from "@/db/schema";
import { parseWith } from "../http/body";
import { recordListingSnapshot } from "../listing/snapshots";
import type { CatalogCache } from "../skills/catalog-cache";
import type { TeamId } from "./teams";

export const listingSettingsSchema = z.strictObject({
  cap: z.coerce.number().int().min(200, "must be at least 200").max(1_000_000),
  descMax: z.coerce.number().int().min(1).max(1024),
  loadHint: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[^\]\r\n]+$/, "may not hold a line break or ]"),
});

export type ListingSettingsInput = z.input<typeof listingSettingsSchema>;

/** A lead changes the team's listing `cap`, `descMax` or `loadHint`; the new size is recorded. */
export async function updateListingSettings(db: Db, catalogs: CatalogCache, teamId: TeamId, input: ListingSettingsInput): Promise<void> {
  const settings = parseWith(listingSettingsSchema, input, "InvalidField");
  await db
    .update(teams)
    .set({ listingCap: settings.cap, descMax: settings.descMax, loadHint: settings.loadHint })
    .where(eq(teams.id, teamId));
  await recordListingSnapshot(db, catalogs, teamId, `settings: cap ${settings.cap}, descMax ${settings.descMax}`);
}
