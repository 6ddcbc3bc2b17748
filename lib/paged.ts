/**
 * Long lists on a page (a 10,000-skill catalog's never-loaded skills, a run's recall per skill)
 * show the first 50 with a count and go on page by page, the page a search param so the address
 * can be shared (docs/decisions/long-lists.md).
 */

export const LIST_PAGE_SIZE = 50;

/** One page of a list: its rows, how many the whole list holds, and where the page sits in it. */
export interface Paged<T> {
  rows: T[];
  total: number;
  /** 1-based, within 1..pages. */
  page: number;
  pages: number;
  /** The 1-based position of the page's first row in the whole list (0 when the list is empty). */
  first: number;
}

/** The page number a search param asks for: a whole number from 1, else the first page. */
export function pageParam(value: string | string[] | undefined): number {
  const page = Number(Array.isArray(value) ? value[0] : value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/** Where a page of `size` rows starts, the page kept within the list (past its end: the last page). */
export function pageBounds(total: number, page: number, size = LIST_PAGE_SIZE): { page: number; pages: number; offset: number } {
  const pages = Math.max(1, Math.ceil(total / size));
  const within = Math.min(Math.max(1, page), pages);
  return { page: within, pages, offset: (within - 1) * size };
}

/** One page of a list held whole. */
export function pageOf<T>(items: readonly T[], page: number, size = LIST_PAGE_SIZE): Paged<T> {
  return pageFrom(items.slice(...sliceOf(items.length, page, size)), items.length, page, size);
}

/** A page whose rows were read already (a query with LIMIT and OFFSET), with the whole list's count. */
export function pageFrom<T>(rows: T[], total: number, page: number, size = LIST_PAGE_SIZE): Paged<T> {
  const bounds = pageBounds(total, page, size);
  return { rows, total, page: bounds.page, pages: bounds.pages, first: total === 0 ? 0 : bounds.offset + 1 };
}

function sliceOf(total: number, page: number, size: number): [number, number] {
  const { offset } = pageBounds(total, page, size);
  return [offset, offset + size];
}
