import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { promptSets, type PromptCase } from "@/db/schema";
import { AppError, specError } from "../errors";
import { parseWith } from "../http/body";
import { skillNameProblem } from "../skills/name";
import type { TeamId } from "../teams/teams";

/** Prompt sets (§9): named lists of cases `{id, prompt, expected, expectNone}`; a case's class is its id's first letter. */

export type CaseClass = "D" | "P" | "G";

export function classOf(id: string): CaseClass {
  return id[0] as CaseClass;
}

const skillName = z.string().refine((name) => skillNameProblem(name) === null, { message: "is not a skill name" });

export const promptCaseSchema = z
  .strictObject({
    id: z.string().regex(/^[DPG][A-Za-z0-9_.-]{0,63}$/, "must start with D (keywords), P (paraphrase) or G (should trigger nothing), e.g. D1"),
    prompt: z.string().trim().min(1, "is empty").max(10_000),
    expected: z.array(skillName).max(20).default([]),
    expectNone: z.boolean().default(false),
  })
  .refine((c) => !(c.expectNone && c.expected.length > 0), { message: "expects nothing, so expected must be empty", path: ["expected"] })
  .refine((c) => c.expectNone || c.expected.length > 0, { message: "names no expected skill: give expected, or expectNone: true", path: ["expected"] });

export const promptSetSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9-]{0,79}$/, "must be 1–80 lowercase letters, digits and hyphens"),
  cases: z.array(promptCaseSchema).min(1, "needs at least one case").max(5000),
});

export type PromptSetInput = z.input<typeof promptSetSchema>;

/** Validates a prompt set, including that case ids are unique. */
export function parsePromptSet(value: unknown): { name: string; cases: PromptCase[] } {
  const set = parseWith(promptSetSchema, value, "InvalidField");
  const seen = new Set<string>();
  for (const c of set.cases) {
    if (seen.has(c.id)) throw new AppError("InvalidField", `case id "${c.id}" appears twice; ids must be unique`);
    seen.add(c.id);
  }
  return set;
}

export async function savePromptSet(db: Db, teamId: TeamId, value: unknown) {
  const set = parsePromptSet(value);
  await db
    .insert(promptSets)
    .values({ teamId, name: set.name, cases: set.cases })
    .onConflictDoUpdate({ target: [promptSets.teamId, promptSets.name], set: { cases: set.cases, updatedAt: new Date() } });
  return set;
}

export async function getPromptSet(db: Db, teamId: TeamId, name: string) {
  const [row] = await db.select().from(promptSets).where(and(eq(promptSets.teamId, teamId), eq(promptSets.name, name)));
  if (!row) throw specError("PromptSetNotFound", `No prompt set named '${name}' in this team.`);
  return { name: row.name, cases: row.cases, updatedAt: row.updatedAt.toISOString() };
}

export async function listPromptSets(db: Db, teamId: TeamId) {
  const rows = await db.select().from(promptSets).where(eq(promptSets.teamId, teamId)).orderBy(asc(promptSets.name));
  return rows.map((row) => ({ name: row.name, cases: row.cases, updatedAt: row.updatedAt.toISOString() }));
}

export async function deletePromptSet(db: Db, teamId: TeamId, name: string) {
  const deleted = await db.delete(promptSets).where(and(eq(promptSets.teamId, teamId), eq(promptSets.name, name))).returning({ id: promptSets.id });
  if (deleted.length === 0) throw specError("PromptSetNotFound", `No prompt set named '${name}' in this team.`);
  return { name, deleted: true };
}
