import { z } from "zod";
import { versionNumber } from "../api/schemas";
import { parseWith } from "../http/body";
import { versionsThatRan } from "../skills/catalog";
import type { CatalogCache, CatalogKey } from "../skills/catalog-cache";
import { skillNameProblem } from "../skills/name";
import type { SkillView } from "./view-recorder";

/**
 * Loads that happened outside skill_view (§11.1 `POST /api/v1/usage/views`): a harness such as
 * Claude Code reads skills from disk and reports each load, so usage counts real sessions.
 */

const viewSchema = z.strictObject({
  skill: z.string().refine((name) => skillNameProblem(name) === null, { message: "is not a skill name" }),
  sessionId: z.string().min(1).max(200),
  version: versionNumber.optional(),
});
const batchSchema = z.strictObject({ views: z.array(viewSchema).min(1, "send at least one view").max(1000, "send at most 1000 views at a time") });

export type HarnessView = z.infer<typeof viewSchema>;

export function parseHarnessViews(value: unknown): HarnessView[] {
  const batch = value !== null && typeof value === "object" && "views" in value;
  return batch ? parseWith(batchSchema, value, "InvalidField").views : [parseWith(viewSchema, value, "InvalidField")];
}

export async function recordHarnessViews(
  deps: { catalogs: CatalogCache; views: { record(view: SkillView): void } },
  team: CatalogKey,
  inputs: HarnessView[],
  keyId: number,
): Promise<{ recorded: number }> {
  const versions = versionsThatRan(await deps.catalogs.catalog(team), inputs, "views");
  const views = inputs.map((input, i) => ({
    teamId: team.id,
    skillName: input.skill,
    source: "harness",
    version: versions[i]!,
    keyId,
    sessionId: input.sessionId,
    viewedAt: new Date(),
  }));
  for (const view of views) deps.views.record(view);
  return { recorded: views.length };
}
