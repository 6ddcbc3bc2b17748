import { and, desc, eq, inArray } from "drizzle-orm";
import { generateObject } from "ai";
import { z } from "zod";
import type { Db } from "@/db/client";
import { only } from "@/db/rows";
import { amendments, evaluations } from "@/db/schema";
import { AppError, specError } from "../errors";
import { authorOf, type Actor } from "../learned/actor";
import { recordEvent } from "../learned/events";
import type { CatalogCache, CatalogKey } from "../skills/catalog-cache";
import { composeSkillMd, parseSkillMd } from "../skills/skill-md";
import { loadSkillContent, resolveSkill } from "../skills/view";
import type { TeamId } from "../teams/teams";
import { requireModel, type ConfiguredModel } from "./model";
import { selectTestCases } from "./observations";

/** Amendments (§8.2): proposed changes with no authority of their own. */

export type AmendmentRow = typeof amendments.$inferSelect;

export interface AmendmentInput {
  description?: string;
  body?: string;
  rationale: string;
}

export async function getAmendment(db: Db, teamId: TeamId, id: number): Promise<AmendmentRow> {
  const [row] = await db
    .select()
    .from(amendments)
    .where(and(eq(amendments.teamId, teamId), eq(amendments.id, id)));
  if (!row) throw specError("AmendmentNotFound", `No amendment #${id} in this team.`);
  return row;
}

/** The SKILL.md texts an evaluation compares: the version the amendment was written against, and it amended. */
export async function amendmentTexts(db: Db, catalogs: CatalogCache, team: CatalogKey, amendment: AmendmentRow) {
  const base = await loadSkillContent(db, catalogs, team, amendment.skillName, amendment.baseVersion);
  const original = base.frontmatter + base.body;
  const { fields } = parseSkillMd(original);
  const amended = composeSkillMd(
    { ...(fields as { name: string; description: string }), description: amendment.description ?? base.skill.description },
    amendment.body ?? base.body,
  );
  return { original, amended };
}

export async function proposeAmendment(
  db: Db,
  catalogs: CatalogCache,
  team: CatalogKey,
  actor: Actor,
  name: string,
  input: AmendmentInput,
  origin: "person" | "agent" | "generated" = actor.kind === "person" ? "person" : "agent",
): Promise<{ id: number; status: "pending" }> {
  if (input.description === undefined && input.body === undefined)
    throw new AppError("InvalidField", "send a new description, a new body or both");
  if (input.rationale.trim() === "") throw new AppError("InvalidField", 'field "rationale": say why this change should help');
  const skill = await resolveSkill(catalogs, team, name);
  const base = await loadSkillContent(db, catalogs, team, name);
  // The amended text must be a valid skill now, not only when someone tries to apply it.
  const { fields } = parseSkillMd(base.frontmatter + base.body);
  parseSkillMd(
    composeSkillMd(
      { ...(fields as { name: string; description: string }), description: input.description ?? base.skill.description },
      input.body ?? base.body,
    ),
  );
  const author = authorOf(actor);
  return db.transaction(async (tx) => {
    const rows = await tx
      .insert(amendments)
      .values({
        teamId: team.id,
        skillName: name,
        skillSource: skill.source,
        baseVersion: skill.version,
        description: input.description ?? null,
        body: input.body ?? null,
        rationale: input.rationale,
        origin,
        authorUserId: author.userId,
        authorKeyId: author.keyId,
        sessionId: author.sessionId,
      })
      .returning({ id: amendments.id });
    const { id } = only(rows);
    await recordEvent(tx, team.id, name, "amended", actor, skill.version, { amendmentId: id, origin });
    return { id, status: "pending" as const };
  });
}

const proposalSchema = z.object({
  description: z.string().describe("a better description, or the current one unchanged"),
  body: z.string().describe("the full new Markdown body of the skill"),
  rationale: z.string().describe("which failures this change addresses, and how"),
});

/** Asks the configured model for an amendment that addresses the skill's recent failures. */
export async function generateAmendment(
  db: Db,
  catalogs: CatalogCache,
  model: ConfiguredModel | null,
  team: CatalogKey,
  actor: Actor,
  name: string,
): Promise<{ id: number; status: "pending" }> {
  const judge = requireModel(model);
  const content = await loadSkillContent(db, catalogs, team, name);
  const failures = (await selectTestCases(db, team.id, name)).filter((o) => o.outcome !== "success");
  if (failures.length === 0)
    throw new AppError("Unprocessable", `"${name}" has no recorded failures to learn from; record observations first`);
  const { object } = await generateObject({
    model: judge.model,
    schema: proposalSchema,
    temperature: 0,
    system:
      "You improve agent skills: written procedures an AI agent follows. Change only what the recorded failures show is wrong or missing.",
    prompt: [
      "## Current SKILL.md",
      content.frontmatter + content.body,
      "",
      "## Recent failures",
      ...failures.map(
        (f, i) =>
          `${i + 1}. [${f.outcome}${f.errorType ? `, ${f.errorType}` : ""}] ${f.task}${f.feedback ? `\n   feedback: ${f.feedback}` : ""}`,
      ),
    ].join("\n"),
  });
  const description = object.description.trim() === content.skill.description ? undefined : object.description.trim();
  return proposeAmendment(db, catalogs, team, actor, name, { description, body: object.body, rationale: object.rationale }, "generated");
}

/** A skill's amendments, newest first, each with its latest evaluation's verdict. */
export async function listAmendments(db: Db, teamId: TeamId, name: string) {
  const rows = await db
    .select()
    .from(amendments)
    .where(and(eq(amendments.teamId, teamId), eq(amendments.skillName, name)))
    .orderBy(desc(amendments.id));
  const evaluated =
    rows.length === 0
      ? []
      : await db
          .select({
            id: evaluations.id,
            amendmentId: evaluations.amendmentId,
            status: evaluations.status,
            verdict: evaluations.verdict,
            promotedVersion: evaluations.promotedVersion,
          })
          .from(evaluations)
          .where(
            inArray(
              evaluations.amendmentId,
              rows.map((row) => row.id),
            ),
          )
          .orderBy(desc(evaluations.id));
  return rows.map((row) => {
    const latest = evaluated.find((e) => e.amendmentId === row.id) ?? null;
    return {
      id: row.id,
      skill: row.skillName,
      baseVersion: row.baseVersion,
      description: row.description,
      body: row.body,
      rationale: row.rationale,
      origin: row.origin,
      status: row.status,
      createdAt: row.createdAt.toISOString(),
      evaluation: latest,
    };
  });
}
