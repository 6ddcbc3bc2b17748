import type { TeamListing } from "../skills/catalog-cache";
import type { ListingSettings } from "./render";

/** The figures of §3.7 as response headers. */
export function listingHeaders(listing: TeamListing): Record<string, string> {
  const { figures } = listing;
  return {
    "x-skills-total": String(figures.total),
    "x-skills-shown": String(figures.shown),
    "x-skills-dropped-descriptions": String(figures.droppedDescriptions),
    "x-skills-dropped-entries": String(figures.droppedEntries),
    "x-listing-chars": String(figures.chars),
    "x-listing-cap": String(figures.cap),
    etag: listing.etag,
    "cache-control": "private, no-cache",
  };
}

/** `?format=json`: the same text, its figures, and every entry by group with what happened to it. */
export function listingJson(listing: TeamListing, settings: ListingSettings) {
  return {
    text: listing.text,
    ...listing.figures,
    descMax: settings.descMax,
    truncated: listing.truncated,
    groups: listing.groups
      .filter((group) => group.entries.length > 0)
      .map((group) => ({ scope: group.scope, heading: group.heading, chars: group.chars, entries: group.entries })),
  };
}
