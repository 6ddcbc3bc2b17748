import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { renderListing, type ListingSkill } from "@/lib/listing/render";

interface GoldenCase {
  title: string;
  cap: number;
  descMax: number;
  skills: ListingSkill[];
  diagnostics: string[];
  expected: string;
  figures: { total: number; shown: number; droppedDescriptions: number; droppedEntries: number; chars: number };
}

const golden = JSON.parse(readFileSync(new URL("../fixtures/listing-cases.json", import.meta.url), "utf8")) as { cases: GoldenCase[] };

describe("listing render: the golden cases of docs/skills-and-listing.md#the-listing", () => {
  it("has the seven cases", () => expect(golden.cases).toHaveLength(7));

  for (const c of golden.cases) {
    it(c.title, () => {
      const rendered = renderListing(c.skills, c.diagnostics, { cap: c.cap, descMax: c.descMax, loadHint: "skill_view" });
      expect(rendered.text).toBe(c.expected);
      expect(rendered.figures).toEqual({ ...c.figures, cap: c.cap });
    });

    it(`${c.title} (input order does not matter)`, () => {
      const shuffled = [...c.skills].reverse();
      const rendered = renderListing(shuffled, c.diagnostics, { cap: c.cap, descMax: c.descMax, loadHint: "skill_view" });
      expect(rendered.text).toBe(c.expected);
    });
  }
});
