import { LRUCache } from "lru-cache";
import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { only } from "@/db/rows";
import { teams } from "@/db/schema";
import { renderListing, type ListingSettings, type RenderedListing } from "../listing/render";
import { sha256Hex } from "../hash";
import type { TeamId } from "../teams/teams";
import { loadCatalog, type Catalog, type StaticCatalog } from "./catalog";
import type { StaticSkill } from "./folders";

/** What a cached catalog is keyed by: every catalog change bumps the team's revision. */
export interface CatalogKey {
  id: TeamId;
  catalogRevision: number;
}

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
 * versions. The revision is read with the request's team (one query), so a change made by any
 * process is seen at once. Everything here belongs to one app and its database.
 */
export class CatalogCache {
  private readonly catalogs = new LRUCache<string, Promise<Catalog>>({ max: 256 });
  private readonly listings = new LRUCache<string, TeamListing>({ max: 1024 });
  /** A version's bytes never change, so a cached version is never stale. Bounded by size. */
  readonly contents = new LRUCache<string, VersionContent>({
    maxSize: 64 * 1024 * 1024,
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

  catalog(team: CatalogKey): Promise<Catalog> {
    const key = `${team.id}:${team.catalogRevision}`;
    let catalog = this.catalogs.get(key);
    if (!catalog) {
      catalog = loadCatalog(this.db, this.statics, team.id);
      // A failed load (database down) must not be remembered.
      catalog.catch(() => this.catalogs.delete(key));
      this.catalogs.set(key, catalog);
    }
    return catalog;
  }

  async listing(team: CatalogKey, settings: ListingSettings): Promise<TeamListing> {
    const key = `${team.id}:${team.catalogRevision}:${settings.cap}:${settings.descMax}:${settings.loadHint}`;
    const cached = this.listings.get(key);
    if (cached) return cached;
    const catalog = await this.catalog(team);
    const rendered = renderListing(catalog.active, catalog.diagnostics, settings);
    const listing = { ...rendered, etag: `"${sha256Hex(rendered.text)}"` };
    this.listings.set(key, listing);
    return listing;
  }
}

/** Called inside every transaction that changes what a team's catalog holds. */
export async function bumpCatalogRevision(db: Db, teamId: TeamId): Promise<number> {
  const rows = await db
    .update(teams)
    .set({ catalogRevision: sql`${teams.catalogRevision} + 1` })
    .where(eq(teams.id, teamId))
    .returning({ revision: teams.catalogRevision });
  return only(rows).revision;
}
