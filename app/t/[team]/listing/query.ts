import type { ZodError } from "zod";
import { listingQuery } from "@/lib/contracts/listing";
import { CUT_LISTS, type CutList } from "@/lib/listing/cut-pages";

type SearchParams = Record<string, string | string[] | undefined>;

/**
 * What the budget page's address asks for: a what-if (`?cap=&descMax=`), a search over the names
 * of what was cut (`?q=`), and the page of each list of it (`?dropped=2`), so any view of the page
 * can be shared as a link.
 */
export interface ListingPageQuery {
  whatIf: { cap?: number; descMax?: number };
  /** Why the what-if asked for was refused, if it was: the page shows the team's settings instead. */
  error: ZodError | null;
  q: string;
  pages: Record<CutList, number>;
}

export function listingPageQuery(raw: SearchParams): ListingPageQuery {
  const parsed = listingQuery.safeParse({ cap: single(raw.cap), descMax: single(raw.descMax) });
  const pageOf = (list: CutList) => {
    const page = Number(single(raw[list]));
    return Number.isInteger(page) && page >= 1 ? page : 1;
  };
  return {
    whatIf: parsed.success ? { cap: parsed.data.cap, descMax: parsed.data.descMax } : {},
    error: parsed.success ? null : parsed.error,
    q: (single(raw.q) ?? "").trim().toLowerCase().slice(0, 200),
    pages: Object.fromEntries(CUT_LISTS.map((list) => [list, pageOf(list)])) as Record<CutList, number>,
  };
}

/** The what-if's own params (none at the team's settings), for the search form and the download to carry. */
export function whatIfParams(query: ListingPageQuery): [string, string][] {
  return Object.entries(query.whatIf).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)]]));
}

/** The search params of this view with one list at another page; first pages are left out, so the plain page stays `/listing`. */
export function cutListSearch(query: ListingPageQuery, list: CutList, page: number): string {
  const params = new URLSearchParams(whatIfParams(query));
  if (query.q) params.set("q", query.q);
  for (const each of CUT_LISTS) {
    const value = each === list ? page : query.pages[each];
    if (value > 1) params.set(each, String(value));
  }
  const search = params.toString();
  return search ? `?${search}` : "";
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value === "" ? undefined : value;
}
