import { describe, expect, it } from "vitest";
import type { CatalogRow, RowReader } from "@/lib/overview/table";
import { parseTableQuery, tablePage, tableSearch, DEFAULT_QUERY } from "@/lib/overview/table";

const row = (name: string, change: Partial<CatalogRow> = {}): CatalogRow => ({
  name,
  source: "builtin",
  scope: "team",
  version: 1,
  served: { why: "latest", latest: 1 },
  labels: [],
  status: "active",
  folder: null,
  lint: [],
  collision: null,
  provenance: null,
  ...change,
});

const catalog = [...Array(120)].map((_, i) =>
  row(`skill-${String(i).padStart(3, "0")}`, { source: i % 2 ? "file" : "builtin", folder: i % 2 ? `skills/s${i}` : null }),
);
const numberOf = (r: CatalogRow) => Number(r.name.slice("skill-".length));
/** Views 30d are the skill's number mod 7; one in ten was never loaded; three are loaded, then failing; three are costly. */
const read: RowReader = {
  value: (r, key) => (key === "views30d" ? numberOf(r) % 7 : 0),
  neverLoaded: (r) => numberOf(r) % 10 === 0,
  typedOnly: () => false,
  loadedThenFailing: (r) => numberOf(r) % 40 === 3,
  costly: (r) => numberOf(r) % 50 === 7,
};
const page = (query: typeof DEFAULT_QUERY) => tablePage(catalog, query, read);

describe("the overview's skill health table", () => {
  it("cuts the catalog into pages of 50, the last page holding the rest, and clamps a page past the end", () => {
    expect(page(DEFAULT_QUERY)).toMatchObject({ matching: 120, total: 120, page: 1, pages: 3 });
    expect(
      page(DEFAULT_QUERY)
        .rows.map((r) => r.name)
        .slice(0, 2),
    ).toEqual(["skill-000", "skill-001"]);
    const last = page({ ...DEFAULT_QUERY, page: 3 });
    expect([last.rows.length, last.rows[0]?.name]).toEqual([20, "skill-100"]);
    expect(page({ ...DEFAULT_QUERY, page: 9 })).toMatchObject({ page: 3, pages: 3 });
  });

  it("filters by text in the name or source and by what to show, before it pages", () => {
    expect(page({ ...DEFAULT_QUERY, show: "never" })).toMatchObject({ matching: 12, pages: 1 });
    expect(page({ ...DEFAULT_QUERY, show: "loadedThenFailing" }).rows.map((r) => r.name)).toEqual(["skill-003", "skill-043", "skill-083"]);
    expect(page({ ...DEFAULT_QUERY, show: "costly" }).rows.map((r) => r.name)).toEqual(["skill-007", "skill-057", "skill-107"]);
    expect(page({ ...DEFAULT_QUERY, q: "skills/s1" }).matching).toBe(catalog.filter((r) => r.folder?.includes("skills/s1")).length);
    expect(page({ ...DEFAULT_QUERY, q: "skill-11" }).rows.map((r) => r.name)).toEqual([
      "skill-110",
      "skill-111",
      "skill-112",
      "skill-113",
      "skill-114",
      "skill-115",
      "skill-116",
      "skill-117",
      "skill-118",
      "skill-119",
    ]);
  });

  it("sorts the whole catalog, not the page: views 30d descending, ties by name", () => {
    const top = page({ ...DEFAULT_QUERY, sort: "views30d", descending: true }).rows;
    expect(top.slice(0, 3).map((r) => [r.name, read.value(r, "views30d")])).toEqual([
      ["skill-006", 6],
      ["skill-013", 6],
      ["skill-020", 6],
    ]);
  });

  it("reads its query from the URL, ignores what it does not know, and writes back only what differs from the default", () => {
    expect(parseTableQuery({ q: " Deploy ", show: "never", sort: "views7d", page: "2" })).toEqual({
      q: "deploy",
      show: "never",
      sort: "views7d",
      descending: true,
      page: 2,
    });
    expect(parseTableQuery({ show: "everything", sort: "password", page: "-1", dir: "sideways" })).toEqual(DEFAULT_QUERY);
    expect([parseTableQuery({ show: "loadedThenFailing" }).show, parseTableQuery({ show: "costly" }).show]).toEqual([
      "loadedThenFailing",
      "costly",
    ]);
    expect(tableSearch({ ...DEFAULT_QUERY, show: "loadedThenFailing" })).toBe("?show=loadedThenFailing");
    expect(parseTableQuery({ q: ["a", "b"] })).toEqual(DEFAULT_QUERY);
    expect(tableSearch(DEFAULT_QUERY)).toBe("");
    expect(tableSearch({ ...DEFAULT_QUERY, sort: "views30d", descending: true, page: 2 })).toBe("?sort=views30d&page=2");
    expect(tableSearch({ ...DEFAULT_QUERY, sort: "name", descending: true })).toBe("?sort=name&dir=desc");
    expect(parseTableQuery(Object.fromEntries(new URLSearchParams("sort=name&dir=desc")))).toEqual({ ...DEFAULT_QUERY, descending: true });
  });
});
