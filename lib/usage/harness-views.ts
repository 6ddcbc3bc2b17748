import type { HarnessView } from "../contracts/activation";
import { versionsThatRan } from "../skills/catalog";
import type { CatalogCache, CatalogKey } from "../skills/catalog-cache";
import type { SkillView } from "./rollups";

/**
 * Loads that happened outside skill_view (docs/api.md#shapes `POST /api/v1/usage/views`): a harness such as
 * Claude Code reads skills from disk and reports each load, so usage counts real sessions.
 */

export async function recordHarnessViews(
  deps: { catalogs: CatalogCache; views: { record(view: SkillView): void } },
  team: CatalogKey,
  inputs: HarnessView[],
  keyId: number,
): Promise<{ recorded: number }> {
  const ran = versionsThatRan(await deps.catalogs.catalog(team), inputs, "views");
  const views = ran.map(([input, version]) => ({
    teamId: team.id,
    skillName: input.skill,
    source: "harness",
    version,
    keyId,
    sessionId: input.sessionId,
    viewedAt: new Date(),
  }));
  for (const view of views) deps.views.record(view);
  return { recorded: views.length };
}
