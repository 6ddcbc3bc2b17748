import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { mutedTools } from "@/db/schema";
import { requireLead, type Actor } from "../learned/actor";
import { skillNotFound } from "../errors";
import type { CatalogCache, CatalogKey } from "../skills/catalog-cache";

/**
 * Tools a lead muted for a skill (docs/telemetry.md, "Muted tools"): their failures while the skill
 * is loaded make no observation of it (lib/telemetry/settle.ts), because they say nothing about
 * the skill — say, Bash running the agent's own tests, which fail on purpose. The production
 * figures still count them: muting changes what amendments learn from, not what happened.
 */

export interface MutedTools {
  name: string;
  mutedTools: string[];
}

export async function listMutedTools(db: Db, catalogs: CatalogCache, team: CatalogKey, name: string): Promise<MutedTools> {
  await requireSkill(catalogs, team, name);
  return { name, mutedTools: await mutedToolsOf(db, team.id, name) };
}

export async function muteTool(db: Db, catalogs: CatalogCache, team: CatalogKey, actor: Actor, name: string, tool: string) {
  requireLead(actor, "muting a tool");
  await requireSkill(catalogs, team, name);
  await db.insert(mutedTools).values({ teamId: team.id, skillName: name, toolName: tool }).onConflictDoNothing();
  return { name, mutedTools: await mutedToolsOf(db, team.id, name) };
}

export async function unmuteTool(db: Db, catalogs: CatalogCache, team: CatalogKey, actor: Actor, name: string, tool: string) {
  requireLead(actor, "unmuting a tool");
  await requireSkill(catalogs, team, name);
  await db.delete(mutedTools).where(and(eq(mutedTools.teamId, team.id), eq(mutedTools.skillName, name), eq(mutedTools.toolName, tool)));
  return { name, mutedTools: await mutedToolsOf(db, team.id, name) };
}

/** The tools muted for a skill, in name order; none for a name no lead muted anything of. */
export async function mutedToolsOf(db: Db, teamId: number, name: string): Promise<string[]> {
  const rows = await db
    .select({ tool: mutedTools.toolName })
    .from(mutedTools)
    .where(and(eq(mutedTools.teamId, teamId), eq(mutedTools.skillName, name)))
    .orderBy(asc(mutedTools.toolName));
  return rows.map((row) => row.tool);
}

async function requireSkill(catalogs: CatalogCache, team: CatalogKey, name: string): Promise<void> {
  if (!(await catalogs.catalog(team)).named.has(name)) throw skillNotFound(name);
}
