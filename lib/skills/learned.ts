import { and, eq, ne } from "drizzle-orm";
import { stringify } from "yaml";
import type { Db } from "@/db/client";
import { learnedSkills, learnedSkillVersions, workspaceSkills } from "@/db/schema";
import { specError } from "../errors";
import { recordListingSnapshot } from "../listing/snapshots";
import { sha256Hex } from "../text";
import type { TeamId } from "../teams/teams";
import { bumpCatalogRevision, type CatalogCache } from "./catalog-cache";
import { parseSkillMd } from "./skill-md";

/** Learned skills (§6): written by agents and people, stored with every version. */

export interface LearnedAuthor {
  userId?: number | null;
  keyId?: number | null;
  sessionId?: string | null;
}

export interface NewLearnedSkill {
  name: string;
  description: string;
  body: string;
  status: "draft" | "active";
  provenance: { kind: "agent" | "user" | "imported"; ref: string | null };
  reason?: string | null;
  author: LearnedAuthor;
}

/** The SKILL.md text of a learned skill: frontmatter written from its fields, then the body as given. */
export function composeSkillMd(name: string, description: string, body: string): string {
  const yaml = stringify({ name, description }, { lineWidth: 0 });
  return `---\n${yaml}---\n${body}`;
}

export async function createLearnedSkill(
  db: Db,
  catalogs: CatalogCache,
  teamId: TeamId,
  input: NewLearnedSkill,
): Promise<{ name: string; version: 1; status: "draft" | "active" }> {
  const text = composeSkillMd(input.name, input.description, input.body);
  const parsed = parseSkillMd(text);
  await db.transaction(async (tx) => {
    await refuseHeldName(tx, catalogs, teamId, parsed.name);
    const [skill] = await tx
      .insert(learnedSkills)
      .values({
        teamId,
        name: parsed.name,
        status: input.status,
        currentVersion: 1,
        description: parsed.description,
        sourceKind: input.provenance.kind,
        sourceRef: input.provenance.ref,
        reason: input.reason ?? null,
      })
      .onConflictDoNothing()
      .returning({ id: learnedSkills.id });
    if (!skill) throw specError("SkillExists", `learned skill "${parsed.name}" already exists`);
    await tx.insert(learnedSkillVersions).values({
      skillId: skill.id,
      version: 1,
      frontmatter: parsed.frontmatter,
      body: parsed.body,
      sha256: sha256Hex(text),
      authorUserId: input.author.userId ?? null,
      authorKeyId: input.author.keyId ?? null,
      authorSession: input.author.sessionId ?? null,
      reason: input.reason ?? null,
      parentVersion: null,
    });
    await bumpCatalogRevision(tx, teamId);
  });
  if (input.status === "active") await recordListingSnapshot(db, catalogs, teamId, `learned skill ${parsed.name} created`);
  return { name: parsed.name, version: 1, status: input.status };
}

/** A learned skill may not take a name that a built-in, global or workspace skill holds (§6.4). */
async function refuseHeldName(db: Db, catalogs: CatalogCache, teamId: TeamId, name: string): Promise<void> {
  const onDisk = catalogs.statics.skills.find((skill) => skill.name === name);
  if (onDisk) {
    throw specError("NameCollision", `"${name}" is held by a ${onDisk.scope === "builtin" ? "builtin" : "file"} skill`);
  }
  const [workspace] = await db
    .select({ name: workspaceSkills.name })
    .from(workspaceSkills)
    .where(and(eq(workspaceSkills.teamId, teamId), eq(workspaceSkills.name, name)));
  if (workspace) throw specError("NameCollision", `"${name}" is held by a file skill`);
  const [learned] = await db
    .select({ id: learnedSkills.id })
    .from(learnedSkills)
    .where(and(eq(learnedSkills.teamId, teamId), eq(learnedSkills.name, name), ne(learnedSkills.status, "archived")));
  if (learned) throw specError("SkillExists", `learned skill "${name}" already exists`);
}
