import { LRUCache } from "lru-cache";
import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { singleRow } from "@/db/rows";
import { teams } from "@/db/schema";
import { renderListing, type ListingSettings, type RenderedListing } from "../listing/render";
import { sha256Hex } from "../hash";
import type { TeamId } from "../teams/teams";
import { loadDrafts, loadListedCatalog, withDrafts, type Catalog, type CatalogSkill, type StaticCatalog } from "./catalog";
import type { StaticSkill } from "./folders";
import type { LabelName } from "./label";

/**
 * What a cached catalog is keyed by: a change to what the listing can show bumps the team's
 * catalog revision, a change to drafts alone its drafts revision (`bumpCatalogRevision`).
 */
export interface CatalogKey {
  id: TeamId;
  catalogRevision: number;
  draftsRevision: number;
  /** The label a reader asked for (§10): its catalog serves the labelled versions. */
  label?: LabelName | null;
}

/** Which part of a team's catalog a write changed: what the listing can show, or drafts alone. */
export type CatalogPart = "listed" | "drafts";

export interface TeamListing extends RenderedListing {
  etag: string;
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
  private readonly listings = new LRUCache<string, TeamListing>({ max: 1024 });
  /** A version's bytes never change, so a cached version is never stale. Bounded by size. */
  readonly contents = new LRUCache<string, VersionContent>({
    maxSize: 128 * 1024 * 1024,
    sizeCalculation: (value) => value.frontmatter.length + value.body.length + 64,
  });

  constructor(
    private readonly db: Db,
    readonly statics: StaticCatalog,
  ) {}

  /** A built-in or global skill as read from disk. */
  staticSkill(name: string, scope: "builtin" | "global"): StaticSkill | undefined {
    return this.statics.skills.find((skill) => skill.name === name && skill.scope === scope);
  }

  /** The whole catalog: the listed part and the drafts, each loaded again only when its own revision moved. */
  catalog(team: CatalogKey): Promise<Catalog> {
    return loadOnce(this.catalogs, `${team.id}:${team.catalogRevision}:${team.draftsRevision}:${team.label ?? ""}`, async () => {
      const [listed, drafts] = await Promise.all([this.listedCatalog(team), this.teamDrafts(team)]);
      return withDrafts(listed, drafts);
    });
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

  async listing(team: CatalogKey, settings: ListingSettings): Promise<TeamListing> {
    const key = `${team.id}:${team.catalogRevision}:${team.label ?? ""}:${settings.cap}:${settings.descMax}:${settings.loadHint}`;
    const cached = this.listings.get(key);
    if (cached) return cached;
    const catalog = await this.listedCatalog(team);
    const rendered = renderListing(catalog.active, catalog.diagnostics, settings);
    const listing = { ...rendered, etag: `"${sha256Hex(rendered.text)}"` };
    this.listings.set(key, listing);
    return listing;
  }
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
