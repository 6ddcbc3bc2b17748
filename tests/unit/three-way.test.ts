import { describe, expect, it } from "vitest";
import { describeSpans, mergeField, mergeText } from "@/lib/evolution/three-way";

/** The three-way merge an out-of-date amendment is re-proposed with (docs/evaluation-and-activation.md#out-of-date-amendments). */
describe("three-way merge of an amendment onto the current text", () => {
  const base = "a\nb\nc\nd\ne\n";

  it("applies changes to lines the other side left alone, and a change both made once", () => {
    expect(mergeText(base, "A\nb\nc\nd\ne\n", "a\nb\nc\nd\nE\n")).toEqual({ ok: true, value: "A\nb\nc\nd\nE\n" });
    expect(mergeText(base, "a\nB\nc\nd\ne\n", "a\nB\nc\nd\ne\n")).toEqual({ ok: true, value: "a\nB\nc\nd\ne\n" });
  });

  it("names the lines of the base both changed, including adjacent ones and text both added at one place", () => {
    expect(mergeText(base, "A\nb\nc\nD\ne\n", "X\nb\nc\nd\nY\n")).toEqual({
      ok: false,
      conflicts: [
        { first: 1, last: 1 },
        { first: 4, last: 5 },
      ],
    });
    expect(mergeText(base, "a\nb\none\nc\nd\ne\n", "a\nb\ntwo\nc\nd\ne\n")).toEqual({ ok: false, conflicts: [{ first: 3, last: 2 }] });
    expect(describeSpans([{ first: 3, last: 3 }])).toBe("line 3");
    expect(describeSpans([{ first: 1, last: 0 }])).toBe("at its start");
    expect(
      describeSpans([
        { first: 1, last: 1 },
        { first: 3, last: 2 },
        { first: 4, last: 5 },
      ]),
    ).toBe("line 1, after line 2 and lines 4–5");
  });

  it("a field: the amendment's where only it changed, nothing where it is already so, a conflict where both changed it", () => {
    expect(mergeField("old", "new", "old")).toEqual({ ok: true, value: "new" });
    expect(mergeField("old", null, "other")).toEqual({ ok: true, value: null });
    expect(mergeField("old", "new", "new")).toEqual({ ok: true, value: null });
    expect(mergeField("old", "new", "other")).toEqual({ ok: false, conflicts: [] });
  });
});
