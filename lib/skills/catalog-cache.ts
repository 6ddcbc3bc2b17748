import { LRUCache } from "lru-cache";
import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { singleRow } from "@/db/rows";
import { teams } from "@/db/schema";
import { renderListing, type ListingSettings, type RenderedListing } from "../listing/render";
import { sha256Hex } from "../hash";
import type { TeamId } from "../teams/teams";
import {
  findStaticSkill,
  loadDrafts,
  loadListedCatalog,
  loadTeamLabels,
  requireKnownLabel,
  servedOf,
  withDrafts,
  type Catalog,
  type CatalogSkill,
  type StaticCatalog,
  type TeamLabels,
} from "./catalog";
import type { StaticSkill } from "./folders";
import type { LabelName } from "./label";
import { loadWorkspaceFiles, readStaticFile, workspaceFilePaths, type FileContent, type WorkspaceFiles } from "./files";
import { buildSkillsIndex, type SkillsIndex } from "./index-json";

/**
 * What a cached catalog is keyed by: a change to what the listing can show bumps the team's
 * catalog revision, a change to drafts alone its drafts revision (`bumpCatalogRevision`).
 */
export interface CatalogKey {
  id: TeamId;
  catalogRevision: number;
  draftsRevision: number;
  /** The label a reader asked for (docs/learned-skills.md#labels): its catalog serves the labelled versions. */
  label?: LabelName | null;
}

/** Which part of a team's catalog a write changed: what the listing can show, or drafts alone. */
export type CatalogPart = "listed" | "drafts";

export interface TeamListing extends RenderedListing {
  etag: string;
  /**
   * The text as UTF-8, encoded once: the listing is sent again and again, and its header's dash
   * makes it a two-byte string, which costs a scan and an encoding on every answer made from it
   * (docs/hot-path.md).
   */
  bytes: Uint8Array<ArrayBuffer>;
}

/** The stored text of one version of a workspace or learned skill. */
export interface VersionContent {
  frontmatter: string;
  body: string;
  sha256: string;
}

/**
 * Resolved catalogs and rendered listings, per team and catalog revision, and the content of
 * versions. The revisions come with what the request's key authenticates as (lib/auth/key-cache.ts),
 * which every instance forgets when the team's row changes, so a change made by any process is seen
 * as soon as its notice arrives. Everything here belongs to one app and its database.
 */
export class CatalogCache {
  private readonly listed = new LRUCache<string, Promise<Catalog>>({ max: 256 });
  private readonly drafts = new LRUCache<string, Promise<CatalogSkill[]>>({ max: 256 });
  private readonly catalogs = new LRUCache<string, Promise<Catalog>>({ max: 256 });
  private readonly teamLabels = new LRUCache<string, Promise<TeamLabels>>({ max: 256 });
  private readonly listings = new LRUCache<string, TeamListing>({ max: 1024 });
  /** A version's bytes never change, so a cached version is never stale. Bounded by size. */
  private readonly contents = new LRUCache<string, VersionContent>({
    maxSize: 128 * 1024 * 1024,
    sizeCalculation: (value) => value.frontmatter.length + value.body.length + 64,
  });
  private readonly loadingContents = new Map<string, Promise<VersionContent | null>>();
  /**
   * Workspace skills' supporting files, per version: a version's files never change either, so an
   * installer's burst of file requests costs one query per skill, once (issue 38). Bounded by size.
   */
  private readonly files = new LRUCache<string, WorkspaceFiles>({
    maxSize: 128 * 1024 * 1024,
    sizeCalculation: (value) => value.files.reduce((sum, file) => sum + file.content.byteLength + 128, 64),
  });
  private readonly loadingFiles = new Map<string, Promise<WorkspaceFiles>>();
  /** Built-in and global skills' files, read from disk once. */
  private readonly staticFiles = new LRUCache<string, Promise<FileContent>>({ max: 4_096 });
  /**
   * Syncs of this instance that ended while what they staged could not be deleted (the database
   * away): the background tick deletes it as soon as the database answers (lib/skills/sync.ts).
   */
  readonly leftoverSyncs = new Set<string>();
  /** The skills index (docs/mcp.md#skill-installers) per catalog state: what installers ask for first. */
  private readonly indexes = new LRUCache<string, Promise<SkillsIndex>>({ max: 256 });

  /** The names of the built-in and global skills: every team has them, at v1. */
  readonly staticNames: ReadonlySet<string>;

  constructor(
    private readonly db: Db,
    readonly statics: StaticCatalog,
  ) {
    this.staticNames = new Set(statics.skills.map((skill) => skill.name));
  }

  /** A built-in or global skill as read from disk. */
  staticSkill(name: string, scope: "builtin" | "global"): StaticSkill | undefined {
    return findStaticSkill(this.statics, name, scope);
  }

  /** The whole catalog: the listed part and the drafts, each loaded again only when its own revision moved. */
  catalog(team: CatalogKey): Promise<Catalog> {
    const load = () =>
      loadOnce(this.catalogs, `${team.id}:${team.catalogRevision}:${team.draftsRevision}:${team.label ?? ""}`, async () => {
        const [listed, drafts] = await Promise.all([this.listedCatalog(team), this.teamDrafts(team)]);
        return withDrafts(listed, drafts);
      });
    return team.label ? this.knownLabel(team).then(load) : load();
  }

  /** The labels on the team's live learned skills, once per catalog state (drafts have labels too, so both revisions key it). */
  labels(team: CatalogKey): Promise<TeamLabels> {
    return loadOnce(this.teamLabels, `${team.id}:${team.catalogRevision}:${team.draftsRevision}`, () => loadTeamLabels(this.db, team.id));
  }

  /** A reader's label (or an install link's) is on some version of one of the team's skills, or it is refused as the typo it is (docs/learned-skills.md#labels). */
  async knownLabel(team: CatalogKey): Promise<void> {
    if (team.label) requireKnownLabel(await this.labels(team), team.label);
  }

  private listedCatalog(team: CatalogKey): Promise<Catalog> {
    return loadOnce(this.listed, `${team.id}:${team.catalogRevision}:${team.label ?? ""}`, () =>
      loadListedCatalog(this.db, this.statics, team.id, team.label ?? null),
    );
  }

  private teamDrafts(team: CatalogKey): Promise<CatalogSkill[]> {
    return loadOnce(this.drafts, `${team.id}:${team.draftsRevision}:${team.label ?? ""}`, () =>
      loadDrafts(this.db, team.id, team.label ?? null),
    );
  }

  /**
   * A workspace skill's supporting files at `version`, loaded once for every request that asks at
   * the same time. They are kept under the version the table held them for, which is `version`
   * unless a sync moved the skill on meanwhile: then they answer this request (they are what the
   * database holds) and the next request at the new version.
   */
  workspaceFiles(teamId: TeamId, name: string, version: number): WorkspaceFiles | Promise<WorkspaceFiles> {
    return loadShared(
      this.files,
      this.loadingFiles,
      `${teamId}:${name}:${version}`,
      () => loadWorkspaceFiles(this.db, teamId, name),
      (files) => `${teamId}:${name}:${files.version}`,
    );
  }

  /**
   * The stored text of one version (`key` names the skill and version), loaded once for every
   * request that asks at the same time: a burst of views or installs of one skill makes one query.
   * A version that does not exist is not kept.
   */
  versionContent(key: string, load: () => Promise<VersionContent | null>): VersionContent | Promise<VersionContent | null> {
    return loadShared(this.contents, this.loadingContents, key, load);
  }

  /** A built-in or global skill's file, read from disk once (the folder was listed at start-up). */
  staticFile(name: string, scope: "builtin" | "global", filePath: string): Promise<FileContent> {
    const skill = this.staticSkill(name, scope);
    if (!skill) throw new Error(`${scope} skill "${name}" was not read from disk`);
    return loadOnce(this.staticFiles, `${scope}:${name}:${filePath}`, () => readStaticFile(skill, filePath));
  }

  /** The skills index at the team's catalog state, built once per state. */
  skillsIndex(team: CatalogKey): Promise<SkillsIndex> {
    const load = () =>
      loadOnce(this.indexes, `${team.id}:${team.catalogRevision}:${team.label ?? ""}`, async () =>
        buildSkillsIndex((await this.listedCatalog(team)).active, this.statics, await workspaceFilePaths(this.db, team.id)),
      );
    return team.label ? this.knownLabel(team).then(load) : load();
  }

  async listing(team: CatalogKey, settings: ListingSettings): Promise<TeamListing> {
    if (team.label) await this.knownLabel(team);
    const key = `${team.id}:${team.catalogRevision}:${team.label ?? ""}:${settings.cap}:${settings.descMax}:${settings.loadHint}`;
    const cached = this.listings.get(key);
    if (cached) return cached;
    const catalog = await this.listedCatalog(team);
    const listed = catalog.active.map((skill) => ({
      name: skill.name,
      scope: skill.scope,
      description: skill.description,
      served: servedOf(skill),
    }));
    const rendered = renderListing(listed, catalog.diagnostics, settings);
    const listing = { ...rendered, etag: `"${sha256Hex(rendered.text)}"`, bytes: new TextEncoder().encode(rendered.text) };
    this.listings.set(key, listing);
    return listing;
  }
}

/**
 * What `cache` holds under `key`, at once and not as a promise (a warm request awaits nothing for
 * it: docs/hot-path.md), or else `load`, once for every caller that asks while it loads. A value is
 * kept under `keepAs(value)` (`key` unless said); nothing (null) and a failed load are not kept.
 */
function loadShared<T>(
  cache: LRUCache<string, NonNullable<T>>,
  loading: Map<string, Promise<T>>,
  key: string,
  load: () => Promise<T>,
  keepAs: (value: NonNullable<T>) => string = () => key,
): NonNullable<T> | Promise<T> {
  const cached = cache.get(key);
  if (cached) return cached;
  let underWay = loading.get(key);
  if (!underWay) {
    underWay = load()
      .then((value) => {
        if (value !== null && value !== undefined) cache.set(keepAs(value), value);
        return value;
      })
      .finally(() => loading.delete(key));
    loading.set(key, underWay);
  }
  return underWay;
}

/** A load in flight or done, shared by every request for the same key; a failed load (database down) is not kept. */
function loadOnce<T>(cache: LRUCache<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
  let value = cache.get(key);
  if (!value) {
    value = load();
    value.catch(() => cache.delete(key));
    cache.set(key, value);
  }
  return value;
}

/**
 * Called inside every transaction that changes what a team's catalog holds, naming the part it
 * changed: a draft written, edited or archived leaves the listing and the listed catalog cached.
 * Promoting a draft changes both, in one update (each update of a team's row is announced to every
 * instance).
 */
export async function bumpCatalogRevision(db: Db, teamId: TeamId, part: CatalogPart | "both"): Promise<CatalogKey> {
  const listed = { catalogRevision: sql`${teams.catalogRevision} + 1` };
  const drafts = { draftsRevision: sql`${teams.draftsRevision} + 1` };
  const rows = await db
    .update(teams)
    .set(part === "listed" ? listed : part === "drafts" ? drafts : { ...listed, ...drafts })
    .where(eq(teams.id, teamId))
    .returning({ catalogRevision: teams.catalogRevision, draftsRevision: teams.draftsRevision });
  return { id: teamId, ...singleRow(rows) };
}
