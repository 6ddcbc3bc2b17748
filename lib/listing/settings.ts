import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { singleRow } from "@/db/rows";
import { teams } from "@/db/schema";
import type { SettingsPatch, TeamSettings } from "../contracts/settings";
import { recordListingSnapshot } from "./snapshots";
import type { CatalogCache } from "../skills/catalog-cache";
import type { TeamId } from "../teams/teams";

const columns = {
  cap: teams.listingCap,
  descMax: teams.descMax,
  loadHint: teams.loadHint,
  autoPromote: teams.autoPromote,
  requireReasons: teams.requireReasons,
  storePrompts: teams.storePrompts,
  telemetryDays: teams.telemetryDays,
};

export async function teamSettings(db: Db, teamId: TeamId): Promise<TeamSettings> {
  return singleRow(await db.select(columns).from(teams).where(eq(teams.id, teamId)));
}

/** A lead changes any of the team's settings; a change to the listing's records its new size. */
export async function updateTeamSettings(db: Db, catalogs: CatalogCache, teamId: TeamId, patch: SettingsPatch): Promise<TeamSettings> {
  const rows = await db
    .update(teams)
    .set({
      listingCap: patch.cap,
      descMax: patch.descMax,
      loadHint: patch.loadHint,
      autoPromote: patch.autoPromote,
      requireReasons: patch.requireReasons,
      storePrompts: patch.storePrompts,
      telemetryDays: patch.telemetryDays,
    })
    .where(eq(teams.id, teamId))
    .returning(columns);
  const settings = singleRow(rows);
  if (patch.cap !== undefined || patch.descMax !== undefined || patch.loadHint !== undefined) {
    await recordListingSnapshot(db, catalogs, teamId, `settings: cap ${settings.cap}, descMax ${settings.descMax}`);
  }
  return settings;
}
