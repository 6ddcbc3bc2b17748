import { applyPatch, createTwoFilesPatch, FILE_HEADERS_ONLY } from "diff";
import { describe, expect, it } from "vitest";
import { boundedUnifiedPatch, MAX_EDIT_LENGTH } from "@/lib/learned/line-diff";
import { sideBySide } from "@/lib/learned/side-by-side";

const lines = (count: number, word: string) =>
  Array.from({ length: count }, (_, i) => `- ${word} ${i}: a line of a long skill.\n`).join("");

describe("bounded line diffs", () => {
  it("gives the library's own patch when two versions differ a little", () => {
    for (const [a, b] of [
      ["a\nb\n", "a\nc\n"],
      ["a\nb", "c\nd"],
      ["", "x\n"],
      ["x\n", ""],
      ["a\r\nb\r\n", "a\nb\n"],
    ]) {
      expect(boundedUnifiedPatch("s@v1", "s@v2", a!, b!)).toBe(
        createTwoFilesPatch("s@v1", "s@v2", a!, b!, undefined, undefined, { headerOptions: FILE_HEADERS_ONLY }),
      );
    }
  });

  it("gives a whole-replacement patch that still applies when two versions share nothing", () => {
    const a = lines(4000, "Step");
    const b = lines(4000, "Item");
    const patch = boundedUnifiedPatch("s@v1", "s@v2", a, b);
    expect(patch.split("\n").slice(0, 3)).toEqual(["--- s@v1", "+++ s@v2", "@@ -1,4000 +1,4000 @@"]);
    expect(applyPatch(a, patch)).toBe(b);
    const noNewline = boundedUnifiedPatch("s@v1", "s@v2", `${a}tail`, `${b}end`);
    expect(applyPatch(`${a}tail`, noNewline)).toBe(`${b}end`);
  });

  it("shows such versions side by side as one replacement, every line once", () => {
    const rows = sideBySide(lines(MAX_EDIT_LENGTH * 2, "Step"), lines(MAX_EDIT_LENGTH * 2, "Item"));
    expect(rows).toHaveLength(MAX_EDIT_LENGTH * 2);
    expect(rows.every((row) => row.kind === "changed")).toBe(true);
  });
});
