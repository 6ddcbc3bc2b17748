/**
 * The budget page's lists of what was cut, a page at a time: at 10,000 skills the cap drops
 * thousands of entries, and printing them all made the page megabytes (docs/decisions/listing-budget-page.md). The whole lists are the download's (cut-csv.ts).
 */
import { pageOf, type Paged } from "../paged";

/** The lists, each named by the state of its entries (`?format=json`'s names) and paged by a search param of that name. */
export const CUT_LISTS = ["dropped", "stripped", "cut"] as const;
export type CutList = (typeof CUT_LISTS)[number];

/** An entry with its place in its whole list (1-based), which a search keeps. */
export interface Placed<T> {
  entry: T;
  position: number;
}

/** A page of the entries a search matches (`total` counts those), with the size of the whole list. */
export interface CutPage<T> extends Paged<Placed<T>> {
  entries: number;
}

/** One page of the entries whose name contains `search` (lower case; empty matches all); a page past the end shows the last. */
export function cutPage<T extends { name: string }>(entries: readonly T[], search: string, page: number): CutPage<T> {
  const placed = entries.map((entry, i) => ({ entry, position: i + 1 }));
  const matching = search === "" ? placed : placed.filter(({ entry }) => entry.name.includes(search));
  return { ...pageOf(matching, page), entries: entries.length };
}
