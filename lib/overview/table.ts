/** One row of the overview's skill table. */
export interface SkillHealthRow {
  name: string;
  source: string;
  scope: string;
  /** The version agents get (docs/learned-skills.md#one-served-version)… */
  version: number;
  /** …and why: a lead's pin or the latest, with the latest when it is another. */
  served: { why: string; latest: number };
  /** A learned skill's labels and the versions they mark. */
  labels: readonly { label: string; version: number }[];
  status: string;
  folder: string | null;
  /** Lint findings as a lead reads them: the rule's code and the sentence that says what to fix. */
  lint: { rule: string; message: string }[];
  views7d: number;
  views30d: number;
  lastViewedAt: string | null;
  /** "shadowed by builtin", "shadows file skills/x" */
  collision: string | null;
  neverLoaded: boolean;
  /** Activations the agents' telemetry reported in 30 days (docs/telemetry.md#activations): the model chose it, or a person typed `/name`. */
  proactive: number;
  typed: number;
  /** Only ever typed: its description does not make the model choose it. */
  typedOnly: boolean;
  /** Tools failed more often while it was loaded than with no skill loaded, beyond both intervals (30 days). */
  loadedThenFailing: boolean;
  /** Its prompts cost at least twice what prompts with no skill loaded cost (30 days). */
  costly: boolean;
  /** For learned skills: where it came from, e.g. "agent · session 7f3a". */
  provenance: string | null;
  /** Recorded runs and the share that succeeded (null with none). */
  runs: number;
  successRate: number | null;
  /** The verification tier of a learned skill's current version. */
  tier: string | null;
  /** Recall in the latest finished activation run, where it was expected at all. */
  recall: number | null;
  /** Views on each of the last 30 days, oldest first (the sparkline); they add up to `views30d`. */
  dailyViews: number[];
}

/** The part of a row that changes only with the catalog (lib/overview/catalog-rows.ts). */
export type CatalogRow = Pick<
  SkillHealthRow,
  "name" | "source" | "scope" | "version" | "served" | "labels" | "status" | "folder" | "lint" | "collision" | "provenance"
>;

/**
 * What filters and sorts read beyond a catalog row, looked up by name: the overview builds whole
 * rows only for the page it shows, and reads usage for the others only when a sort asks for it.
 */
export interface RowReader {
  /** A column that is not part of the catalog row. */
  value(row: CatalogRow, key: Exclude<SortKey, keyof CatalogRow | "lint">): string | number;
  neverLoaded(row: CatalogRow): boolean;
  typedOnly(row: CatalogRow): boolean;
  loadedThenFailing(row: CatalogRow): boolean;
  costly(row: CatalogRow): boolean;
}

/**
 * The overview's skill health table is filtered, sorted and cut into pages on the server: a
 * catalog of 10,000 skills must not send 10,000 rows to the browser (docs/decisions/dashboard-tables.md). The query lives in the page's URL, so a filtered, sorted page can be linked.
 */

export const SORT_KEYS = [
  "name",
  "source",
  "version",
  "status",
  "lint",
  "views7d",
  "views30d",
  "proactive",
  "typed",
  "lastViewedAt",
  "successRate",
  "recall",
] as const;
export type SortKey = (typeof SORT_KEYS)[number];

export const SHOW_FILTERS = ["all", "active", "shadowed", "draft", "never", "typed", "loadedThenFailing", "costly", "lint"] as const;
export type ShowFilter = (typeof SHOW_FILTERS)[number];

export const PAGE_SIZE = 50;

export interface TableQuery {
  /** Text the name or source contains. */
  q: string;
  show: ShowFilter;
  sort: SortKey;
  descending: boolean;
  page: number;
}

export const DEFAULT_QUERY: TableQuery = { q: "", show: "all", sort: "name", descending: false, page: 1 };

/** The query from a page's search params; anything it does not recognise is left at its default (a stale link still opens). */
export function parseTableQuery(params: Record<string, string | string[] | undefined>): TableQuery {
  const one = (key: string) => {
    const value = params[key];
    return typeof value === "string" ? value : undefined;
  };
  const sort = SORT_KEYS.find((key) => key === one("sort")) ?? DEFAULT_QUERY.sort;
  const page = Number(one("page"));
  return {
    q: (one("q") ?? "").trim().toLowerCase().slice(0, 200),
    show: SHOW_FILTERS.find((show) => show === one("show")) ?? DEFAULT_QUERY.show,
    sort,
    descending: one("dir") === "desc" ? true : one("dir") === "asc" ? false : isNumeric(sort),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/** The search params that open this query: defaults left out, so the plain overview stays `/t/<team>`. */
export function tableSearch(query: TableQuery): string {
  const params = new URLSearchParams();
  if (query.q) params.set("q", query.q);
  if (query.show !== "all") params.set("show", query.show);
  if (query.sort !== "name" || query.descending) params.set("sort", query.sort);
  if (query.descending !== isNumeric(query.sort)) params.set("dir", query.descending ? "desc" : "asc");
  if (query.page > 1) params.set("page", String(query.page));
  const search = params.toString();
  return search ? `?${search}` : "";
}

/** Numbers sort largest first when a column is first chosen; text sorts A to Z. */
export function isNumeric(key: SortKey): boolean {
  return (
    key === "version" ||
    key === "views7d" ||
    key === "views30d" ||
    key === "proactive" ||
    key === "typed" ||
    key === "successRate" ||
    key === "recall"
  );
}

export interface TablePage<Row = SkillHealthRow> {
  rows: Row[];
  /** Rows that match the filter, over every page. */
  matching: number;
  /** Rows of the whole catalog. */
  total: number;
  page: number;
  pages: number;
}

/** One page of the rows the query matches; `rows` come sorted by name (catalogRows), which a stable sort keeps within ties. */
export function tablePage(rows: readonly CatalogRow[], query: TableQuery, read: RowReader, pageSize = PAGE_SIZE): TablePage<CatalogRow> {
  const filtered = rows
    .filter((row) => shows(row, query.show, read))
    .filter((row) => query.q === "" || row.name.includes(query.q) || sourceLabel(row).includes(query.q) || row.folder?.includes(query.q));
  const matching = query.sort === "name" && !query.descending ? filtered : sorted(filtered, query, read);
  const pages = Math.max(1, Math.ceil(matching.length / pageSize));
  const page = Math.min(query.page, pages);
  return { rows: matching.slice((page - 1) * pageSize, page * pageSize), matching: matching.length, total: rows.length, page, pages };
}

/** Each row's value read once, then sorted by it; equal values keep the name order they came in. */
function sorted(rows: CatalogRow[], query: TableQuery, read: RowReader): CatalogRow[] {
  const keyed = rows.map((row) => ({ row, value: sortValue(row, query.sort, read) }));
  keyed.sort((a, b) => {
    const order = a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
    return query.descending ? -order : order;
  });
  return keyed.map((entry) => entry.row);
}

function shows(row: CatalogRow, show: ShowFilter, read: RowReader): boolean {
  if (show === "all") return true;
  if (show === "never") return read.neverLoaded(row);
  if (show === "typed") return read.typedOnly(row);
  if (show === "loadedThenFailing") return read.loadedThenFailing(row);
  if (show === "costly") return read.costly(row);
  if (show === "lint") return row.lint.length > 0;
  return row.status === show;
}

function sortValue(row: CatalogRow, key: SortKey, read: RowReader): string | number {
  if (key === "lint") return row.lint.length;
  if (key === "source") return sourceLabel(row);
  if (key === "name" || key === "version" || key === "status") return row[key];
  return read.value(row, key);
}

/**
 * "builtin", "learned", "file · workspace", "file · global": where a skill comes from, short enough
 * for the table to fit a laptop; a file's path is its root and its name, both on the row already.
 */
export function sourceLabel(row: Pick<SkillHealthRow, "source" | "scope">): string {
  return row.source === "file" ? `file · ${row.scope}` : row.source;
}
