import { sql } from "drizzle-orm";
import { learnedSkillVersions } from "../schema";

/** Queries on the learned skills (db/schema/skills.ts) that more than one capability runs. */

/**
 * The versions named by (skill id, version) pairs, in one condition: the versions the catalog
 * serves (lib/skills/catalog.ts decides which; this only reads them), for a pull or a table of
 * thousands of skills in one query.
 */
export function learnedVersionsIn(pairs: { id: number; version: number }[]) {
  return sql`(${learnedSkillVersions.skillId}, ${learnedSkillVersions.version}) in
    (select id, version from jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) as pairs(id int, version int))`;
}
