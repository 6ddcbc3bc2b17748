import { asc, and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiKeys, workspaceSkillVersions } from "@/db/schema";
import { specError } from "../errors";
import { learnedIdOf } from "../skills/catalog";
import type { CatalogCache, CatalogKey } from "../skills/catalog-cache";
import { loadSkillContent, resolveSkill } from "../skills/view";
import { labelsOf } from "./served";
import { listLearnedVersions } from "./store";
import { isConnection, namedAuthor, type NamedAuthor } from "./actor";
import { boundedUnifiedPatch } from "./line-diff";

/** Versions of the skill skill_view would serve, and diffs between any two (docs/learned-skills.md#versions-and-diffs). */

/** Who made a version: a person, a key or Skillgate (learned skills), a workspace sync, or the deployment (built-in). */
export type VersionAuthor = NamedAuthor | { kind: "sync" } | { kind: "deployment" };

export interface VersionInfo {
  version: number;
  createdAt: string | null;
  author: VersionAuthor;
  reason: string | null;
  parentVersion: number | null;
  revertOf: number | null;
  tier: "unverified" | "reviewed" | "verified";
  sha256: string;
  /** The evaluation that justified this version, when an amendment made it. */
  evaluationId: number | null;
  /** The amendment that evaluation judged: the number a lead knows it by. */
  amendmentId: number | null;
  /** The labels on this version (docs/learned-skills.md#labels), by name. */
  labels: string[];
}

export async function skillVersions(db: Db, catalogs: CatalogCache, team: CatalogKey, name: string): Promise<VersionInfo[]> {
  const skill = await resolveSkill(catalogs, team, name);
  if (skill.scope === "learned") return learnedVersions(db, learnedIdOf(skill));
  if (skill.scope === "workspace") {
    const rows = await db
      .select()
      .from(workspaceSkillVersions)
      .where(and(eq(workspaceSkillVersions.teamId, team.id), eq(workspaceSkillVersions.name, name)))
      .orderBy(asc(workspaceSkillVersions.version));
    return rows.map((row) => ({
      version: row.version,
      createdAt: row.createdAt.toISOString(),
      author: { kind: "sync" },
      reason: null,
      parentVersion: row.version > 1 ? row.version - 1 : null,
      revertOf: null,
      tier: "unverified",
      sha256: row.sha256,
      evaluationId: null,
      amendmentId: null,
      labels: [],
    }));
  }
  const content = await loadSkillContent(db, catalogs, team, name);
  return [
    {
      version: content.version,
      createdAt: null,
      author: { kind: "deployment" },
      reason: null,
      parentVersion: null,
      revertOf: null,
      tier: "unverified",
      sha256: content.sha256,
      evaluationId: null,
      amendmentId: null,
      labels: [],
    },
  ];
}

async function learnedVersions(db: Db, skillId: number): Promise<VersionInfo[]> {
  const [rows, labels] = await Promise.all([listLearnedVersions(db, skillId), labelsOf(db, skillId)]);
  const keyIds = [...new Set(rows.map((row) => row.version.authorKeyId).filter((id): id is number => id !== null))];
  const keys = new Map<number, { name: string; connection: boolean | null }>();
  for (const keyId of keyIds) {
    const [key] = await db
      .select({ name: apiKeys.name, connection: isConnection(apiKeys) })
      .from(apiKeys)
      .where(eq(apiKeys.id, keyId));
    if (key) keys.set(keyId, key);
  }
  return rows.map(({ version: v, authorEmail, amendmentId }) => ({
    version: v.version,
    createdAt: v.createdAt.toISOString(),
    author: namedAuthor({
      userId: v.authorUserId,
      email: authorEmail,
      keyId: v.authorKeyId,
      keyName: v.authorKeyId === null ? null : (keys.get(v.authorKeyId)?.name ?? null),
      keyIsConnection: v.authorKeyId === null ? null : (keys.get(v.authorKeyId)?.connection ?? null),
      session: v.authorSession,
    }),
    reason: v.reason,
    parentVersion: v.parentVersion,
    revertOf: v.revertOf,
    tier: v.tier,
    sha256: v.sha256,
    evaluationId: v.evaluationId,
    amendmentId,
    labels: labels.filter((label) => label.version === v.version).map((label) => label.label),
  }));
}

/** The SKILL.md text of one version. */
export async function versionText(db: Db, catalogs: CatalogCache, team: CatalogKey, name: string, version: number): Promise<string> {
  const content = await loadSkillContent(db, catalogs, team, name, version);
  return content.frontmatter + content.body;
}

/** A unified diff of the SKILL.md texts of two versions, `--- <name>@vA` / `+++ <name>@vB`. */
export async function diffVersions(
  db: Db,
  catalogs: CatalogCache,
  team: CatalogKey,
  name: string,
  from: number,
  to: number,
): Promise<string> {
  if (from < 1 || to < 1) throw specError("VersionNotFound", `versions start at v1`);
  const [a, b] = await Promise.all([versionText(db, catalogs, team, name, from), versionText(db, catalogs, team, name, to)]);
  return unifiedDiff(name, from, to, a, b);
}

export function unifiedDiff(name: string, from: number, to: number, a: string, b: string): string {
  return unifiedPatch(`${name}@v${from}`, `${name}@v${to}`, a, b);
}

export function unifiedPatch(fromLabel: string, toLabel: string, a: string, b: string): string {
  return boundedUnifiedPatch(fromLabel, toLabel, a, b);
}
