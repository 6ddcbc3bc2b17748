import type { Db } from "@/db/client";
import { AppError, invalidSkill } from "../errors";
import { recordListingSnapshot } from "../listing/snapshots";
import { compareCodePoints } from "../listing/render";
import type { CatalogCache, CatalogKey } from "../skills/catalog-cache";
import { versionTexts } from "../skills/served-texts";
import { composeSkillMd, parseSkillMd } from "../skills/skill-md";
import { invalidLines, invalidTree } from "../skills/invalid-folders";
import { planTree } from "../skills/tree-plan";
import { filterTree, type Tree } from "../skills/tree";
import { packTarGz } from "../skills/tar-gz";
import type { TeamId } from "../teams/teams";
import type { Actor } from "./actor";
import { insertLearnedIn, type Deps, type LearnedStatus, type Provenance } from "./write";

/**
 * Export and import of learned skills as standard SKILL.md folders (docs/learned-skills.md#import-and-export). Provenance travels in
 * `metadata` under `skillgate.*` keys; an export imported elsewhere and exported again gives the
 * same files byte for byte.
 */

const KEYS = {
  source: "skillgate.source",
  ref: "skillgate.source-ref",
  createdAt: "skillgate.created-at",
  reason: "skillgate.reason",
  status: "skillgate.status",
  forkedFrom: "skillgate.forked-from",
} as const;
const OURS = new Set<string>(Object.values(KEYS));

export interface ExportedSkill {
  name: string;
  skillMd: string;
}

/**
 * The team's live learned skills — active (shadowed ones too) and drafts — each as the SKILL.md an
 * export holds, provenance in `metadata`: at the version agents get (the catalog's, pinned or
 * latest), so an export, `skillgate pull --all` and skill_view hand out the same version
 * (docs/decisions/one-served-version.md).
 */
export async function exportLearned(db: Db, catalogs: CatalogCache, team: CatalogKey): Promise<ExportedSkill[]> {
  const catalog = await catalogs.catalog(team);
  const learned = [...catalog.active, ...catalog.shadowed, ...catalog.drafts]
    .filter((skill) => skill.scope === "learned")
    .sort((a, b) => compareCodePoints(a.name, b.name));
  const texts = await versionTexts(db, catalogs.statics, team.id, learned);
  return learned.flatMap((skill) => {
    const text = texts.get(skill.name);
    if (!text || !skill.provenance) return [];
    const { fields } = parseSkillMd(text.frontmatter + text.body);
    const { provenance } = skill;
    const ours: Record<string, string | null> = {
      [KEYS.source]: provenance.source,
      [KEYS.ref]: provenance.ref,
      [KEYS.createdAt]: provenance.createdAt,
      [KEYS.reason]: provenance.reason,
      [KEYS.status]: skill.status === "draft" ? "draft" : "active",
      [KEYS.forkedFrom]: provenance.forkedFrom,
    };
    const metadata = { ...((fields.metadata as Record<string, string> | undefined) ?? {}) };
    for (const [key, value] of Object.entries(ours)) if (value !== null) metadata[key] = value;
    return [{ name: skill.name, skillMd: composeSkillMd({ ...(fields as { name: string; description: string }), metadata }, text.body) }];
  });
}

export async function exportLearnedTarGz(db: Db, catalogs: CatalogCache, team: CatalogKey): Promise<Buffer> {
  const skills = await exportLearned(db, catalogs, team);
  const files = skills.map((skill) => ({ path: `${skill.name}/SKILL.md`, content: Buffer.from(skill.skillMd), executable: false }));
  return packTarGz({ files, others: [] });
}

interface Incoming {
  skillMd: string;
  status: LearnedStatus;
  provenance: Provenance;
  reason: string | null;
  forkedFrom: string | null;
}

/** Reads provenance out of `metadata`; a skill without it arrives as `imported` from `origin`. */
function incoming(skillMd: string, origin: string | null): Incoming {
  const { fields, body } = parseSkillMd(skillMd);
  const metadata = (fields.metadata as Record<string, string> | undefined) ?? {};
  const own = Object.fromEntries(Object.entries(metadata).filter(([key]) => !OURS.has(key)));
  const source = metadata[KEYS.source];
  if (source !== undefined && !["agent", "user", "imported"].includes(source))
    throw invalidSkill(`metadata.${KEYS.source} must be agent, user or imported`);
  const status = metadata[KEYS.status] ?? "draft";
  if (status !== "draft" && status !== "active") throw invalidSkill(`metadata.${KEYS.status} must be draft or active`);
  const written = metadata[KEYS.createdAt];
  const createdAt = written ? new Date(written) : undefined;
  if (createdAt && Number.isNaN(createdAt.getTime())) throw invalidSkill(`metadata.${KEYS.createdAt} must be an ISO date`);
  return {
    skillMd: composeSkillMd({ ...(fields as { name: string; description: string }), metadata: own }, body),
    status,
    provenance: source
      ? { kind: source as Provenance["kind"], ref: metadata[KEYS.ref] ?? null, createdAt }
      : { kind: "imported", ref: origin, createdAt },
    reason: metadata[KEYS.reason] ?? null,
    forkedFrom: metadata[KEYS.forkedFrom] ?? null,
  };
}

/** Imports a tree of learned skill folders, all or nothing. Learned skills hold only SKILL.md. */
export async function importLearned(deps: Deps, teamId: TeamId, actor: Actor, tree: Tree, origin: string | null) {
  const { folders, invalid } = await planTree(filterTree(tree).files);
  if (invalid.length > 0)
    throw invalidTree(
      invalid.flatMap((folder) => invalidLines(folder.name, folder.errors)),
      invalid.length,
    );
  for (const folder of folders) {
    const extra = folder.files[0];
    if (extra) throw new AppError("InvalidPath", `invalid path: ${folder.name}/${extra.path}: learned skills hold only SKILL.md`);
  }
  const skills = folders.map((folder) => incoming(folder.skillMd, origin));
  const imported = await deps.db.transaction(async (tx) => {
    const done = [];
    for (const skill of skills) {
      done.push(await insertLearnedIn(tx, deps.catalogs.statics, teamId, actor, { ...skill, event: "imported" }));
    }
    return done;
  });
  if (imported.some((skill) => skill.status === "active")) {
    await recordListingSnapshot(deps.db, deps.catalogs, teamId, `imported ${imported.length} learned skill(s)`);
  }
  return { imported };
}
