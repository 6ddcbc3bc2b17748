/**
 * The budget page's lists of what was cut, a page at a time: at 10,000 skills the cap drops
 * thousands of entries, and printing them all made the page megabytes (docs/decisions.md, "The
 * listing budget page at 10,000 skills"). The whole lists are the download's (cut-csv.ts).
 */

export const CUT_PAGE_SIZE = 50;

/** The lists, each named by the state of its entries (`?format=json`'s names) and paged by a search param of that name. */
export const CUT_LISTS = ["dropped", "stripped", "cut"] as const;
export type CutList = (typeof CUT_LISTS)[number];

/** An entry with its place in its whole list (1-based), which a search keeps. */
export interface Placed<T> {
  entry: T;
  position: number;
}

export interface CutPage<T> {
  items: Placed<T>[];
  /** Entries of the whole list. */
  total: number;
  /** Entries whose name contains the search, over every page (the total without one). */
  matching: number;
  page: number;
  pages: number;
  /** The place among the matching entries of the first one shown (1-based; 0 when none is). */
  first: number;
}

/** One page of the entries whose name contains `search` (lower case; empty matches all); a page past the end shows the last. */
export function cutPage<T extends { name: string }>(entries: readonly T[], search: string, page: number, size = CUT_PAGE_SIZE): CutPage<T> {
  const placed = entries.map((entry, i) => ({ entry, position: i + 1 }));
  const matching = search === "" ? placed : placed.filter(({ entry }) => entry.name.includes(search));
  const pages = Math.max(1, Math.ceil(matching.length / size));
  const shown = Math.min(page, pages);
  const items = matching.slice((shown - 1) * size, shown * size);
  return {
    items,
    total: entries.length,
    matching: matching.length,
    page: shown,
    pages,
    first: items.length === 0 ? 0 : (shown - 1) * size + 1,
  };
}
