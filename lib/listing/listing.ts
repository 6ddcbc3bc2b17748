import type { Db } from "@/db/client";
import type { CatalogCache, TeamListing } from "../skills/catalog-cache";
import type { Team } from "../teams/teams";
import {
  budgetSegments,
  entriesLeftOut,
  shortenedDescriptions,
  type BudgetSegment,
  type LeftOutEntry,
  type ShortenedDescription,
} from "./budget";
import type { ListingSettings } from "./render";
import { listingHistory } from "./snapshots";

/** The listing's figures as response headers (docs/skills-and-listing.md#figures-and-headers). */
export function listingHeaders(listing: TeamListing): Record<string, string> {
  const { figures } = listing;
  return {
    "x-skills-total": String(figures.total),
    "x-skills-shown": String(figures.shown),
    "x-skills-dropped-descriptions": String(figures.droppedDescriptions),
    "x-skills-dropped-entries": String(figures.droppedEntries),
    "x-listing-chars": String(figures.chars),
    // The full catalog has no cap to report.
    ...(Number.isFinite(figures.cap) && { "x-listing-cap": String(figures.cap) }),
    etag: listing.etag,
    "cache-control": "private, no-cache",
  };
}

/** The full catalog renders at no cap and no descMax: JSON says so with null. */
function finiteOrNull(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}

/** `?format=json`: the same text, its figures, and every entry by group with what happened to it. */
export function listingJson(listing: TeamListing, settings: ListingSettings) {
  return {
    text: listing.text,
    ...listing.figures,
    cap: finiteOrNull(listing.figures.cap),
    descMax: finiteOrNull(settings.descMax),
    truncated: listing.truncated,
    groups: listing.groups
      .filter((group) => group.entries.length > 0)
      .map((group) => ({
        scope: group.scope,
        heading: group.heading,
        chars: group.chars,
        entries: group.entries.map(({ name, description, state, served }) => ({ name, description, state, served })),
      })),
  };
}

export interface ListingBudget {
  settings: ListingSettings;
  listing: TeamListing;
  segments: BudgetSegment[];
  /** Entries the cap dropped, in the order it dropped them. */
  dropped: LeftOutEntry[];
  /** Entries the cap left without their description, in the order it stripped them. */
  stripped: LeftOutEntry[];
  /** Descriptions descMax shortened, in listing order. */
  shortened: ShortenedDescription[];
  history: { at: string; chars: number; cap: number; cause: string }[];
}

/** The budget page: the listing as agents get it (or a what-if), how the cap is spent, what was cut, and its history. */
export async function listingBudget(
  db: Db,
  catalogs: CatalogCache,
  team: Team,
  whatIf: { cap?: number; descMax?: number } = {},
): Promise<ListingBudget> {
  const settings = { cap: whatIf.cap ?? team.listingCap, descMax: whatIf.descMax ?? team.descMax, loadHint: team.loadHint };
  const [listing, catalog, history] = await Promise.all([
    catalogs.listing(team, settings),
    catalogs.catalog(team),
    listingHistory(db, team.id),
  ]);
  const descriptions = new Map(catalog.active.map((skill) => [skill.name as string, skill.description]));
  const leftOut = entriesLeftOut(listing, descriptions);
  return {
    settings,
    listing,
    segments: budgetSegments(listing, settings.loadHint, catalog.diagnostics),
    dropped: leftOut.filter((entry) => entry.state === "dropped"),
    stripped: leftOut.filter((entry) => entry.state === "stripped"),
    shortened: shortenedDescriptions(listing, descriptions),
    history: history.map((row) => ({ at: row.takenAt.toISOString(), chars: row.chars, cap: row.cap, cause: row.cause })),
  };
}
