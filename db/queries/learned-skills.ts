import { and, eq, sql } from "drizzle-orm";
import { learnedSkills, learnedSkillVersions } from "../schema";

/** Queries on the learned skills (db/schema/skills.ts) that more than one capability runs. */

/**
 * Joins a learned skill to the version agents get: the pinned one while a lead pins it, else the
 * latest (docs/decisions.md, "Pins").
 */
export const servedLearnedVersion = and(
  eq(learnedSkillVersions.skillId, learnedSkills.id),
  eq(learnedSkillVersions.version, sql`coalesce(${learnedSkills.pinnedVersion}, ${learnedSkills.currentVersion})`),
);
