import { describe, expect, it } from "vitest";
import { hasChanges, sideBySide } from "@/lib/learned/side-by-side";

describe("side-by-side diff rows", () => {
  it("pairs a changed line and keeps line numbers on both sides", () => {
    expect(sideBySide("a\nb\nc\n", "a\nB\nc\nd\n")).toEqual([
      { kind: "same", left: { number: 1, text: "a" }, right: { number: 1, text: "a" } },
      { kind: "changed", left: { number: 2, text: "b" }, right: { number: 2, text: "B" } },
      { kind: "same", left: { number: 3, text: "c" }, right: { number: 3, text: "c" } },
      { kind: "added", left: null, right: { number: 4, text: "d" } },
    ]);
  });

  it("pairs only alike lines: three lines replaced by an unlike one are three removals and an addition", () => {
    expect(sideBySide("x\ny\nz\n", "X\n").map((row) => row.kind)).toEqual(["removed", "removed", "removed", "added"]);
    expect(sideBySide("x\ny\nz\n", "y!\n").map((row) => row.kind)).toEqual(["removed", "changed", "removed"]);
  });

  it("folds long unchanged runs but keeps three lines of context", () => {
    const a = Array.from({ length: 20 }, (_, i) => `line ${i}`).join("\n");
    const b = a.replace("line 10", "LINE 10");
    const rows = sideBySide(a, b);
    expect(rows.map((row) => (row.kind === "skip" ? `skip ${row.count}` : row.kind))).toEqual([
      "skip 7",
      "same",
      "same",
      "same",
      "changed",
      "same",
      "same",
      "same",
      "skip 6",
    ]);
    expect(hasChanges(rows)).toBe(true);
    expect(hasChanges(sideBySide(a, a))).toBe(false);
  });
});
