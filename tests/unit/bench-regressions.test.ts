import { describe, expect, it } from "vitest";
import { regressions } from "@/scripts/bench/regressions";

describe("the bench's comparison with the last committed run", () => {
  const before = [
    { name: "listing", database: "PostgreSQL", ratio: 0.96, aim: "≥ 0.9×" },
    { name: "listing", database: "PGlite", ratio: 0.92, aim: "≥ 0.9×" },
    { name: "render", ratio: 1.6, aim: "≤ 3×" },
    { name: "lexical", ratio: 1, aim: "—" },
  ];

  it("says a row that wants more and fell by more than 5 points, and one that wants less and rose by more", () => {
    const now = [
      { name: "listing", database: "PostgreSQL", ratio: 0.81, aim: "≥ 0.9×" },
      { name: "listing", database: "PGlite", ratio: 0.88, aim: "≥ 0.9×" },
      { name: "render", ratio: 1.7, aim: "≤ 3×" },
      { name: "lexical", ratio: 9, aim: "—" },
    ];
    expect(regressions(before, now)).toEqual([
      { row: "listing (PostgreSQL)", before: 0.96, now: 0.81 },
      { row: "render", before: 1.6, now: 1.7 },
    ]);
  });

  it("says nothing of a row within 5 points, a row that got better, a new row or one without an aim", () => {
    const now = [
      { name: "listing", database: "PostgreSQL", ratio: 0.92, aim: "≥ 0.9×" },
      { name: "listing", database: "PGlite", ratio: 1.2, aim: "≥ 0.9×" },
      { name: "render", ratio: 1.0, aim: "≤ 3×" },
      { name: "new row", ratio: 0.1, aim: "≥ 0.9×" },
      { name: "lexical", ratio: 9, aim: "—" },
    ];
    expect(regressions(before, now)).toEqual([]);
  });
});
