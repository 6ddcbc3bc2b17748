import { describe, expect, it } from "vitest";
import { sideBySide } from "@/lib/learned/side-by-side";
import { unifiedLines } from "@/lib/learned/unified-lines";
import { markWords, MAX_PAIRING_CELLS, pairLines } from "@/lib/learned/word-diff";

const OLD = "# Release\n\n1. Tag the release.\n2. Deploy.\n3. Watch the dashboards.\n";
const NEW = "# Release\n\n1. Tag the release.\n2. Run the smoke tests.\n3. Deploy.\n4. Watch the dashboards.\n";

describe("word diffs", () => {
  it("pairs a renumbered list's lines by likeness, not by position, and marks only the numbers", () => {
    expect(
      pairLines(["2. Deploy.", "3. Watch the dashboards."], ["2. Run the smoke tests.", "3. Deploy.", "4. Watch the dashboards."]),
    ).toEqual([
      { before: null, after: "2. Run the smoke tests." },
      { before: "2. Deploy.", after: "3. Deploy." },
      { before: "3. Watch the dashboards.", after: "4. Watch the dashboards." },
    ]);
    expect(sideBySide(OLD, NEW)).toEqual([
      { kind: "same", left: { number: 1, text: "# Release" }, right: { number: 1, text: "# Release" } },
      { kind: "same", left: { number: 2, text: "" }, right: { number: 2, text: "" } },
      { kind: "same", left: { number: 3, text: "1. Tag the release." }, right: { number: 3, text: "1. Tag the release." } },
      { kind: "added", left: null, right: { number: 4, text: "2. Run the smoke tests." } },
      { kind: "changed", left: { number: 4, text: "2. Deploy." }, right: { number: 5, text: "3. Deploy." } },
      { kind: "changed", left: { number: 5, text: "3. Watch the dashboards." }, right: { number: 6, text: "4. Watch the dashboards." } },
    ]);
    expect(markWords("2. Deploy.", "3. Deploy.")).toEqual({
      before: [
        { text: "2", changed: true },
        { text: ". Deploy.", changed: false },
      ],
      after: [
        { text: "3", changed: true },
        { text: ". Deploy.", changed: false },
      ],
    });
  });

  it("marks each changed run of words once, whitespace inside a run included", () => {
    expect(markWords("1. Ship it.", "1. Ship to 5% first.")).toEqual({
      before: [
        { text: "1. Ship ", changed: false },
        { text: "it", changed: true },
        { text: ".", changed: false },
      ],
      after: [
        { text: "1. Ship ", changed: false },
        { text: "to 5% first", changed: true },
        { text: ".", changed: false },
      ],
    });
  });

  it("shows a whole inserted line as an addition and pairs nothing with it", () => {
    expect(sideBySide("a line\nanother line\n", "a line\nsomething new entirely\nanother line\n").map((row) => row.kind)).toEqual([
      "same",
      "added",
      "same",
    ]);
    expect(pairLines(["keep this line"], ["fresh words", "keep this line!"])).toEqual([
      { before: null, after: "fresh words" },
      { before: "keep this line", after: "keep this line!" },
    ]);
  });

  it("shows a deleted line as a removal, its neighbours unchanged", () => {
    expect(sideBySide("first\nsecond\nthird\n", "first\nthird\n")).toEqual([
      { kind: "same", left: { number: 1, text: "first" }, right: { number: 1, text: "first" } },
      { kind: "removed", left: { number: 2, text: "second" }, right: null },
      { kind: "same", left: { number: 3, text: "third" }, right: { number: 2, text: "third" } },
    ]);
    expect(pairLines(["gone for good", "- item one", "- item two"], ["- item one!", "- item two!"])).toEqual([
      { before: "gone for good", after: null },
      { before: "- item one", after: "- item one!" },
      { before: "- item two", after: "- item two!" },
    ]);
  });

  it("marks nothing between identical texts", () => {
    expect(sideBySide(OLD, OLD)).toEqual([{ kind: "skip", count: 5 }]);
    expect(markWords("2. Deploy.", "2. Deploy.")).toEqual({
      before: [{ text: "2. Deploy.", changed: false }],
      after: [{ text: "2. Deploy.", changed: false }],
    });
    expect(pairLines([], [])).toEqual([]);
  });

  it("pairs one line replaced by one line however different, and a block too big to compare all-to-all by position", () => {
    expect(pairLines(["Deploy."], ["Run the smoke tests."])).toEqual([{ before: "Deploy.", after: "Run the smoke tests." }]);
    const size = Math.ceil(Math.sqrt(MAX_PAIRING_CELLS)) + 1;
    const removed = Array.from({ length: size }, (_, i) => `- Step ${i}: a line of a long skill.`);
    const added = ["a new first line", ...removed.map((line) => line.replace("Step", "Item"))];
    const pairs = pairLines(removed, added);
    // By position the first removed line meets the new first line, unlike it; each later one meets its predecessor's new text, alike enough.
    expect(pairs.slice(0, 3)).toEqual([
      { before: "- Step 0: a line of a long skill.", after: null },
      { before: null, after: "a new first line" },
      { before: "- Step 1: a line of a long skill.", after: "- Item 0: a line of a long skill." },
    ]);
    expect(pairs).toHaveLength(size + 2);
  });
});

describe("unified lines", () => {
  it("lists a changed block's old lines, then its new ones, the words marked only on lines that pair", () => {
    expect(unifiedLines(sideBySide(OLD, NEW)).slice(3)).toEqual([
      {
        kind: "removed",
        left: 4,
        text: "2. Deploy.",
        words: [
          { text: "2", changed: true },
          { text: ". Deploy.", changed: false },
        ],
      },
      {
        kind: "removed",
        left: 5,
        text: "3. Watch the dashboards.",
        words: [
          { text: "3", changed: true },
          { text: ". Watch the dashboards.", changed: false },
        ],
      },
      { kind: "added", right: 4, text: "2. Run the smoke tests.", words: null },
      {
        kind: "added",
        right: 5,
        text: "3. Deploy.",
        words: [
          { text: "3", changed: true },
          { text: ". Deploy.", changed: false },
        ],
      },
      {
        kind: "added",
        right: 6,
        text: "4. Watch the dashboards.",
        words: [
          { text: "4", changed: true },
          { text: ". Watch the dashboards.", changed: false },
        ],
      },
    ]);
    expect(unifiedLines(sideBySide("a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n", "a\nb\nc\nd\ne\nf\ng\nh\ni\nJ!\n")).map((line) => line.kind)).toEqual([
      "skip",
      "same",
      "same",
      "same",
      "removed",
      "added",
    ]);
  });
});
