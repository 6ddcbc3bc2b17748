import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { promptSets } from "@/db/schema";
import { promptSetBody, type PromptSet } from "./prompt-set-input";
import { specError } from "../errors";
import { parseWith } from "../validation";
import type { TeamId } from "../teams/teams";

/** Prompt sets (docs/evaluation-and-activation.md#activation-evals): named lists of cases `{id, prompt, expected, expectNone}`; a case's class is its id's first letter. */

export type CaseClass = "D" | "P" | "G";

export function classOf(id: string): CaseClass {
  return id[0] as CaseClass;
}

/** An inline prompt set (a run's own cases), checked like a saved one. */
export function parsePromptSet(value: unknown): PromptSet {
  return parseWith(promptSetBody, value, "InvalidField");
}

export async function savePromptSet(db: Db, teamId: TeamId, set: PromptSet) {
  await db
    .insert(promptSets)
    .values({ teamId, name: set.name, cases: set.cases })
    .onConflictDoUpdate({ target: [promptSets.teamId, promptSets.name], set: { cases: set.cases, updatedAt: new Date() } });
  return set;
}

export async function getPromptSet(db: Db, teamId: TeamId, name: string) {
  const [row] = await db
    .select()
    .from(promptSets)
    .where(and(eq(promptSets.teamId, teamId), eq(promptSets.name, name)));
  if (!row) throw specError("PromptSetNotFound", `No prompt set named '${name}' in this team.`);
  return { name: row.name, cases: row.cases, updatedAt: row.updatedAt.toISOString() };
}

export async function listPromptSets(db: Db, teamId: TeamId) {
  const rows = await db.select().from(promptSets).where(eq(promptSets.teamId, teamId)).orderBy(asc(promptSets.name));
  return rows.map((row) => ({ name: row.name, cases: row.cases, updatedAt: row.updatedAt.toISOString() }));
}

/** Each prompt set's name and number of cases, without the cases: what a page lists of them. */
export async function promptSetSizes(db: Db, teamId: TeamId): Promise<{ name: string; cases: number }[]> {
  return db
    .select({ name: promptSets.name, cases: sql<number>`jsonb_array_length(${promptSets.cases})`.mapWith(Number) })
    .from(promptSets)
    .where(eq(promptSets.teamId, teamId))
    .orderBy(asc(promptSets.name));
}

/** A prompt set as the editor shows it: the JSON one would POST. */
export function promptSetJson(set: { name: string; cases: unknown }): { name: string; json: string } {
  return { name: set.name, json: JSON.stringify({ name: set.name, cases: set.cases }, null, 2) };
}

export async function deletePromptSet(db: Db, teamId: TeamId, name: string) {
  const deleted = await db
    .delete(promptSets)
    .where(and(eq(promptSets.teamId, teamId), eq(promptSets.name, name)))
    .returning({ id: promptSets.id });
  if (deleted.length === 0) throw specError("PromptSetNotFound", `No prompt set named '${name}' in this team.`);
  return { name, deleted: true };
}
