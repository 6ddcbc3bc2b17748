import { randomUUID } from "node:crypto";
import { and, eq, inArray, lt, max, sql } from "drizzle-orm";
import { inSizedSlices, inSlices } from "@/db/batches";
import type { Db } from "@/db/client";
import { withDeadline } from "@/db/budget";
import { singleRow } from "@/db/rows";
import { invalidWorkspaceFolders, servedWorkspaceVersion } from "@/db/queries/workspace-skills";
import {
  teams,
  workspaceInvalidFolders,
  workspaceSkillFiles,
  workspaceSkills,
  workspaceSkillVersions,
  workspaceStagedVersions,
} from "@/db/schema";
import { AppError } from "../errors";
import { invalidLines, invalidTree, workspaceFolderLabel } from "./invalid-folders";
import { sha256Hex } from "../hash";
import type { TeamId } from "../teams/teams";
import { recordListingSnapshot } from "../listing/snapshots";
import { bumpCatalogRevision, type CatalogCache, type CatalogKey } from "./catalog-cache";
import { invalidFoldersOfWorkspace, resolveCatalog, withDrafts, type Catalog, type CatalogSkill } from "./catalog";
import { describeSkillsBelow, skillLocations } from "./skill-locations";
import { filterTree, type Tree } from "./tree";
import { planTree, type SyncFolder, type TreePlan } from "./tree-plan";
import { enqueueEvent } from "../webhooks/outbox";
import { syncFinished } from "../webhooks/events";

/**
 * Workspace sync (docs/skills-and-listing.md#sync, docs/api.md#shapes): the request is the team's whole tree of skill folders. It is
 * filtered (one filter for every way in), every folder is checked (tree-plan.ts), then the tree is applied in
 * one transaction: a valid folder whose content changed gets a new version, an unchanged one keeps
 * its version, an invalid one is recorded with every error (its last valid version, if any, keeps
 * serving), and a folder not in the tree is removed.
 */

export interface SyncSummary {
  added: string[];
  updated: string[];
  unchanged: string[];
  removed: string[];
}

export interface SyncOptions {
  /** Refuse the whole tree when any folder is invalid (`?strict=true`, for CI). */
  strict?: boolean;
  /** Let a tree with no skill folder empty the workspace (`?allowEmpty=true`). */
  allowEmpty?: boolean;
  /** Say what the sync would do, and write nothing (`?dryRun=true`). */
  dryRun?: boolean;
}

export interface SyncResult {
  changes: SyncSummary;
  /** Each invalid folder as it is named in the tree sent (`<folder>`), with every error. */
  invalid: { folder: string; errors: string[] }[];
  ignored: string[];
  /** The catalog as the sync left it (as the tree would leave it, for a dry run). */
  catalog: Catalog;
  dryRun: boolean;
}

/**
 * Applies the tree, then records the listing's new size when anything changed. All or nothing:
 * versions written ahead of the switch are invisible until it and deleted when it fails.
 */
export async function syncWorkspace(
  db: Db,
  catalogs: CatalogCache,
  teamId: TeamId,
  tree: Tree,
  options: SyncOptions = {},
): Promise<SyncResult> {
  const { files, ignored } = filterTree(tree);
  const sent = tree.files.map((file) => file.path);
  const plan = await planTree(files, sent);
  const invalid = plan.invalid.map((folder) => ({ folder: folder.name, errors: folder.errors }));
  if (options.strict && invalid.length > 0) {
    throw invalidTree(
      invalid.flatMap(({ folder, errors }) => invalidLines(folder, errors)),
      invalid.length,
    );
  }
  const emptyTree = isEmptyTree(plan) && !options.allowEmpty ? { hint: whereSkillsAre(sent) } : null;
  if (options.dryRun) {
    const workspace = await readWorkspace(db, teamId);
    const comparison = compareWithWorkspace(plan, workspace);
    if (emptyTree && comparison.summary.removed.length > 0) throw emptyTreeRefusal(comparison.summary.removed.length, emptyTree.hint);
    const revision = singleRow(
      await db
        .select({ id: teams.id, catalogRevision: teams.catalogRevision, draftsRevision: teams.draftsRevision })
        .from(teams)
        .where(eq(teams.id, teamId)),
    );
    const now = await catalogs.catalog({ ...revision, id: teamId });
    const latest = await latestVersions(
      db,
      teamId,
      comparison.toWrite.map((folder) => folder.name),
    );
    return { changes: comparison.summary, invalid, ignored, catalog: catalogAfter(now, plan, comparison, latest), dryRun: true };
  }
  const syncId = randomUUID();
  let switched = false;
  try {
    const staged = await stageVersions(db, teamId, syncId, plan.folders);
    const { changes, revision, changed } = await applyTree(db, teamId, plan, { syncId, staged, emptyTree });
    switched = true;
    if (changed > 0) await recordListingSnapshot(db, catalogs, teamId, `sync: ${changed} folder(s) changed`);
    return { changes, invalid, ignored, catalog: await catalogs.catalog(revision), dryRun: false };
  } finally {
    // The switch deletes what it staged in its own transaction; whatever ended the sync before it
    // committed, what was staged is deleted before the sync answers.
    if (!switched) await discardStaging(db, syncId, catalogs.leftoverSyncs);
  }
}

/** No folder with a SKILL.md at all: only ignored entries, loose files, or folders that are not skills. */
function isEmptyTree(plan: TreePlan): boolean {
  return plan.folders.length === 0 && plan.invalid.every((folder) => !folder.hasSkillMd);
}

/**
 * Where the skill folders of a tree that has none at its top are, from every path sent (hidden
 * folders too: the CLI sends their SKILL.md files for this); "" when it holds no SKILL.md at all.
 */
function whereSkillsAre(sent: readonly string[]): string {
  if (sent.includes("SKILL.md")) {
    return " Its SKILL.md sits at the top of the tree, so the tree is one skill folder: sync the folder that holds it instead.";
  }
  const locations = skillLocations(sent);
  return locations.length > 0 ? ` Its ${describeSkillsBelow(locations)}` : "";
}

/** `409 EmptyTree`: a tree with no skill folder would remove every workspace skill; the sender most likely sent the wrong folder. */
function emptyTreeRefusal(removed: number, hint: string): AppError {
  return new AppError(
    "EmptyTree",
    `the tree holds no skill folder (a folder with a SKILL.md), so this sync would remove all ${removed} workspace skill folder(s); nothing changed.${hint} To empty the workspace on purpose, send ?allowEmpty=true (skillgate sync --allow-empty).`,
  );
}

/**
 * The catalog the sync would leave (a dry run answers the sync's own body, docs/api.md#shapes): the built-in,
 * global and learned skills of `now` resolved with the workspace the tree makes — a changed or new
 * folder at its next version, an unchanged one and an invalid one's last valid version as they
 * are, a folder not in the tree gone — and the tree's invalid folders. Nothing is written.
 */
function catalogAfter(now: Catalog, plan: TreePlan, { toWrite }: Comparison, latest: Map<string, number>): Catalog {
  const asCandidate = (skill: CatalogSkill): CatalogSkill => ({ ...skill, status: "active" });
  const resolved = [...now.active, ...now.shadowed];
  const workspace = new Map(resolved.filter((skill) => skill.scope === "workspace").map((skill) => [skill.name as string, skill]));
  const written = new Set(toWrite.map((folder) => folder.name as string));
  const candidates = resolved.filter((skill) => skill.scope !== "workspace").map(asCandidate);
  for (const folder of plan.folders) {
    const kept = written.has(folder.name) ? undefined : workspace.get(folder.name);
    candidates.push(kept ? asCandidate(kept) : workspaceSkill(folder, (latest.get(folder.name) ?? 0) + 1));
  }
  for (const folder of plan.invalid) {
    const lastValid = workspace.get(folder.name);
    if (lastValid) candidates.push(asCandidate(lastValid));
  }
  const invalid = [...now.invalid.filter((folder) => folder.scope !== "workspace"), ...invalidFoldersOfWorkspace(plan.invalid)];
  return withDrafts(resolveCatalog(candidates, invalid), now.drafts);
}

function workspaceSkill(folder: SyncFolder, version: number): CatalogSkill {
  return {
    name: folder.name,
    description: folder.parsed.description,
    source: "file",
    scope: "workspace",
    version,
    folder: workspaceFolderLabel(folder.name),
    status: "active",
    warnings: folder.parsed.warnings,
    learnedId: null,
    provenance: null,
  };
}

/** What the workspace serves now: each folder's version and tree, and the errors of each invalid folder. */
interface Workspace {
  served: Map<string, { name: string; version: number; tree: string }>;
  wasInvalid: Map<string, string>;
}

async function readWorkspace(db: Db, teamId: TeamId): Promise<Workspace> {
  const [served, invalid] = await Promise.all([
    db
      .select({ name: workspaceSkills.name, version: workspaceSkills.currentVersion, tree: workspaceSkillVersions.treeSha256 })
      .from(workspaceSkills)
      .innerJoin(workspaceSkillVersions, servedWorkspaceVersion)
      .where(eq(workspaceSkills.teamId, teamId)),
    invalidWorkspaceFolders(db, teamId),
  ]);
  return {
    served: new Map(served.map((row) => [row.name, row])),
    wasInvalid: new Map(invalid.map((row) => [row.name, row.errors.join("\n")])),
  };
}

interface Comparison {
  summary: SyncSummary;
  /** Valid folders whose content differs from what is served. */
  toWrite: SyncFolder[];
  /** Served skills whose folder is not in the tree. */
  gone: string[];
  /** Folders whose errors are new or different. */
  newErrors: string[];
}

/** What applying the plan to this workspace changes: the same for a dry run and for the switch. */
function compareWithWorkspace(plan: TreePlan, { served, wasInvalid }: Workspace): Comparison {
  const summary: SyncSummary = { added: [], updated: [], unchanged: [], removed: [] };
  const toWrite: SyncFolder[] = [];
  for (const folder of plan.folders) {
    const existing = served.get(folder.name);
    if (existing?.tree === folder.treeSha256) {
      summary.unchanged.push(folder.name);
      continue;
    }
    toWrite.push(folder);
    (existing ? summary.updated : summary.added).push(folder.name);
  }
  // An invalid folder keeps its last valid version serving (docs/skills-and-listing.md#sync): it is in the tree, not removed.
  const inTree = new Set([...plan.folders, ...plan.invalid].map((folder) => folder.name));
  const gone = [...served.keys()].filter((name) => !inTree.has(name));
  summary.removed = [...new Set([...gone, ...[...wasInvalid.keys()].filter((name) => !inTree.has(name))])].sort();
  const nowInvalid = new Map(plan.invalid.map((folder) => [folder.name, folder.errors.join("\n")]));
  const newErrors = [...new Set([...nowInvalid.keys(), ...wasInvalid.keys()])].filter(
    (name) => inTree.has(name) && nowInvalid.get(name) !== wasInvalid.get(name),
  );
  return { summary, toWrite, gone, newErrors };
}

interface Applied {
  changes: SyncSummary;
  /** The team's revisions once the tree is applied. */
  revision: CatalogKey;
  /** Folders whose served content, or whose errors, changed. */
  changed: number;
}

/** Folders whose text this sync staged, by name: the tree each holds. */
type Staged = Map<string, string>;

/**
 * Writes the text of the folders that changed before the transaction that switches the workspace
 * to them, a slice per statement: the bulk of a large sync no longer holds the team's row, or the
 * embedded database's only connection, for seconds — other requests run between slices. Staged
 * text is no version until the switch numbers it.
 */
async function stageVersions(db: Db, teamId: TeamId, syncId: string, folders: SyncFolder[]): Promise<Staged> {
  const { served } = await readWorkspace(db, teamId);
  const changed = folders.filter((folder) => served.get(folder.name)?.tree !== folder.treeSha256);
  const staged: Staged = new Map();
  for (const slice of inSizedSlices(changed, (folder) => folder.skillMd.length * 2, STAGED_BYTES)) {
    await db.insert(workspaceStagedVersions).values(
      slice.map((folder) => ({
        syncId,
        teamId,
        name: folder.name,
        frontmatter: folder.parsed.frontmatter,
        body: folder.parsed.body,
        sha256: sha256Hex(folder.skillMd),
        treeSha256: folder.treeSha256,
      })),
    );
    for (const folder of slice) staged.set(folder.name, folder.treeSha256);
  }
  return staged;
}

/** About this much text per staging statement: a few hundred folders, a fraction of a second on the embedded database. */
const STAGED_BYTES = 512 * 1024;

/** A staged row that outlived its sync by this long belongs to a sync whose instance died. */
const ABANDONED_STAGING_MS = 60 * 60 * 1000;

/** How long a sync that failed keeps trying to delete its staged text before it answers, and how often. */
const DISCARD_WITHIN_MS = 1_500;
const DISCARD_EVERY_MS = 250;
/** One try's allowance: a delete by sync id takes milliseconds on a database that answers. */
const DISCARD_TRY_MS = 1_000;

/**
 * Deletes what a sync staged, whatever ended it, before it answers. A sync the database failed
 * (cut off, stopped) meets the driver's breaker (db/breaker.ts) refusing every query until its
 * probe, a second later, finds the server back: the delete is tried again meanwhile, for at most
 * DISCARD_WITHIN_MS. Past that the database is away, and the sync's id is left to the tick
 * (`leftovers`, the App's: CatalogCache.leftoverSyncs).
 */
async function discardStaging(db: Db, syncId: string, leftovers: Set<string>): Promise<void> {
  const until = Date.now() + DISCARD_WITHIN_MS;
  for (;;) {
    try {
      await withDeadline(DISCARD_TRY_MS, () => db.delete(workspaceStagedVersions).where(eq(workspaceStagedVersions.syncId, syncId)));
      return;
    } catch {
      if (Date.now() + DISCARD_EVERY_MS > until) break;
      await new Promise((resolve) => setTimeout(resolve, DISCARD_EVERY_MS));
    }
  }
  leftovers.add(syncId);
}

/**
 * The tick's cleanup: the staged text of this process's syncs that ended while the database was
 * away, and staged text that outlived any sync (its instance died before its own cleanup).
 */
export async function deleteAbandonedStaging(db: Db, leftovers: Set<string>): Promise<void> {
  for (const slice of inSlices([...leftovers])) {
    await db.delete(workspaceStagedVersions).where(inArray(workspaceStagedVersions.syncId, slice));
    for (const id of slice) leftovers.delete(id);
  }
  await db.delete(workspaceStagedVersions).where(lt(workspaceStagedVersions.stagedAt, new Date(Date.now() - ABANDONED_STAGING_MS)));
}

function applyTree(
  db: Db,
  teamId: TeamId,
  plan: TreePlan,
  sync: { syncId: string; staged: Staged; emptyTree: { hint: string } | null },
): Promise<Applied> {
  return db.transaction(async (tx) => {
    // Concurrent syncs of one team apply one after the other, each a whole tree.
    const rows = await tx
      .select({ id: teams.id, catalogRevision: teams.catalogRevision, draftsRevision: teams.draftsRevision })
      .from(teams)
      .where(eq(teams.id, teamId))
      .for("update");
    const locked = singleRow(rows);
    const { summary, toWrite, gone, newErrors } = compareWithWorkspace(plan, await readWorkspace(tx, teamId));
    if (sync.emptyTree && summary.removed.length > 0) throw emptyTreeRefusal(summary.removed.length, sync.emptyTree.hint);
    // Staged text is used when it holds this tree; a folder another sync changed after this one
    // staged (or left alone), from memory. Either way numbered here, after what is there now.
    const ready = toWrite.filter((folder) => sync.staged.get(folder.name) === folder.treeSha256);
    const late = toWrite.filter((folder) => sync.staged.get(folder.name) !== folder.treeSha256);
    await pointSkills(tx, teamId, await numberStaged(tx, teamId, sync.syncId, ready));
    await pointSkills(tx, teamId, await insertVersions(tx, teamId, late));
    await tx.delete(workspaceStagedVersions).where(eq(workspaceStagedVersions.syncId, sync.syncId));
    for (const names of inSlices(gone)) {
      await tx.delete(workspaceSkills).where(and(eq(workspaceSkills.teamId, teamId), inArray(workspaceSkills.name, names)));
      await tx.delete(workspaceSkillFiles).where(and(eq(workspaceSkillFiles.teamId, teamId), inArray(workspaceSkillFiles.name, names)));
    }
    const changed = summary.added.length + summary.updated.length + summary.removed.length + newErrors.length;
    if (changed > 0) {
      await tx.delete(workspaceInvalidFolders).where(eq(workspaceInvalidFolders.teamId, teamId));
      for (const folders of inSlices(plan.invalid)) {
        await tx.insert(workspaceInvalidFolders).values(folders.map((folder) => ({ teamId, name: folder.name, errors: folder.errors })));
      }
    }
    const revision = changed > 0 ? await bumpCatalogRevision(tx, teamId, "listed") : { ...locked, id: teamId };
    if (changed > 0) await enqueueEvent(tx, teamId, syncFinished(summary, plan.invalid.length));
    return { changes: summary, revision, changed };
  });
}

/** Makes this sync's staged text of these folders versions, numbered after each name's latest, in one statement per slice. */
async function numberStaged(
  tx: Db,
  teamId: TeamId,
  syncId: string,
  folders: SyncFolder[],
): Promise<{ folder: SyncFolder; version: number }[]> {
  const byName = new Map(folders.map((folder) => [folder.name as string, folder]));
  const numbered: { folder: SyncFolder; version: number }[] = [];
  for (const names of inSlices([...byName.keys()])) {
    // Spelled out with an alias: inside a select list drizzle names columns without their table, and
    // the subquery would then compare its own columns with themselves.
    const latest = sql<number>`coalesce((select max(v.version) from workspace_skill_versions v
      where v.team_id = workspace_staged_versions.team_id and v.name = workspace_staged_versions.name), 0) + 1`;
    const rows = await tx
      .insert(workspaceSkillVersions)
      .select(
        tx
          .select({
            teamId: workspaceStagedVersions.teamId,
            name: workspaceStagedVersions.name,
            version: latest.as("version"),
            frontmatter: workspaceStagedVersions.frontmatter,
            body: workspaceStagedVersions.body,
            sha256: workspaceStagedVersions.sha256,
            treeSha256: workspaceStagedVersions.treeSha256,
            createdAt: sql<Date>`now()`.as("created_at"),
          })
          .from(workspaceStagedVersions)
          .where(
            and(
              eq(workspaceStagedVersions.syncId, syncId),
              eq(workspaceStagedVersions.teamId, teamId),
              inArray(workspaceStagedVersions.name, names),
            ),
          ),
      )
      .returning({ name: workspaceSkillVersions.name, version: workspaceSkillVersions.version });
    for (const row of rows) numbered.push({ folder: byName.get(row.name) as SyncFolder, version: row.version });
  }
  return numbered;
}

/**
 * New versions of these folders, a few statements per thousand folders rather than one per folder;
 * numbering continues across removals, so a vN of a name always means the same bytes.
 */
async function insertVersions(tx: Db, teamId: TeamId, folders: SyncFolder[]): Promise<{ folder: SyncFolder; version: number }[]> {
  const written: { folder: SyncFolder; version: number }[] = [];
  for (const slice of inSizedSlices(folders, (folder) => folder.skillMd.length * 2)) {
    const latest = await latestVersions(
      tx,
      teamId,
      slice.map((folder) => folder.name),
    );
    const versions = slice.map((folder) => ({ folder, version: (latest.get(folder.name) ?? 0) + 1 }));
    await tx.insert(workspaceSkillVersions).values(
      versions.map(({ folder, version }) => ({
        teamId,
        name: folder.name,
        version,
        frontmatter: folder.parsed.frontmatter,
        body: folder.parsed.body,
        sha256: sha256Hex(folder.skillMd),
        treeSha256: folder.treeSha256,
      })),
    );
    written.push(...versions);
  }
  return written;
}

/** The latest version of each of these names, removed folders' versions included: numbering never reuses one. */
async function latestVersions(db: Db, teamId: TeamId, names: string[]): Promise<Map<string, number>> {
  const latest = new Map<string, number>();
  for (const slice of inSlices(names)) {
    const rows = await db
      .select({ name: workspaceSkillVersions.name, latest: max(workspaceSkillVersions.version) })
      .from(workspaceSkillVersions)
      .where(and(eq(workspaceSkillVersions.teamId, teamId), inArray(workspaceSkillVersions.name, slice)))
      .groupBy(workspaceSkillVersions.name);
    for (const row of rows) latest.set(row.name, row.latest ?? 0);
  }
  return latest;
}

/** Points each skill at its new version, with its description and supporting files. */
async function pointSkills(tx: Db, teamId: TeamId, versions: { folder: SyncFolder; version: number }[]): Promise<void> {
  for (const slice of inSizedSlices(versions, ({ folder }) => folder.files.reduce((sum, file) => sum + file.content.byteLength, 0))) {
    const names = slice.map(({ folder }) => folder.name);
    const updatedAt = new Date();
    await tx
      .insert(workspaceSkills)
      .values(
        slice.map(({ folder, version }) => ({
          teamId,
          name: folder.name,
          currentVersion: version,
          description: folder.parsed.description,
          warnings: folder.parsed.warnings,
          updatedAt,
        })),
      )
      .onConflictDoUpdate({
        target: [workspaceSkills.teamId, workspaceSkills.name],
        set: {
          currentVersion: sql`excluded.current_version`,
          description: sql`excluded.description`,
          warnings: sql`excluded.warnings`,
          updatedAt: sql`excluded.updated_at`,
        },
      });
    await tx.delete(workspaceSkillFiles).where(and(eq(workspaceSkillFiles.teamId, teamId), inArray(workspaceSkillFiles.name, names)));
    const files = slice.flatMap(({ folder }) =>
      folder.files.map((file) => ({
        teamId,
        name: folder.name,
        path: file.path,
        content: Buffer.from(file.content),
        size: file.content.byteLength,
        sha256: file.sha256,
        executable: file.executable,
      })),
    );
    for (const rows of inSizedSlices(files, (file) => file.size)) await tx.insert(workspaceSkillFiles).values(rows);
  }
}
