import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LISTING_SCOPES, listingHeader, renderListing, type ListingSkill } from "@/lib/listing/render";
import { codePointLength } from "@/lib/text";

const nameArb = fc.stringMatching(/^[a-z0-9]{1,12}(-[a-z0-9]{1,8}){0,2}$/);
// Descriptions mix ASCII, line breaks, BMP letters and astral emoji (surrogate pairs).
const descriptionArb = fc
  .array(fc.constantFrom("a", "b", " ", "\n", "\r\n", "é", "—", "😀", "𝒳", "Use when ", "x"), { minLength: 1, maxLength: 90 })
  .map((parts) => parts.join(""));
const skillArb = fc.record({
  name: nameArb,
  scope: fc.constantFrom(...LISTING_SCOPES),
  description: descriptionArb,
});
const catalogArb = fc.uniqueArray(skillArb, { selector: (skill) => skill.name, maxLength: 40 }).map((skills) => skills as ListingSkill[]);
const settingsArb = fc.record({
  cap: fc.integer({ min: 1, max: 4000 }),
  descMax: fc.integer({ min: 1, max: 120 }),
  loadHint: fc.constant("skill_view"),
});
const diagnosticsArb = fc.array(fc.constantFrom("[collision] x (learned) shadowed by builtin"), { maxLength: 2 });

const MARKER =
  /\n\[skills listing truncated: showed (\d+) of (\d+) skills; dropped (\d+) descriptions and (\d+) entries — call skill_list for the full catalog\]$/;

function hasLoneSurrogate(text: string): boolean {
  return /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

describe("listing render: properties", () => {
  it("never exceeds the cap while header, diagnostics and marker fit", () => {
    fc.assert(
      fc.property(catalogArb, diagnosticsArb, settingsArb, (skills, diagnostics, settings) => {
        const { text, figures } = renderListing(skills, diagnostics, settings);
        const floor =
          codePointLength(listingHeader("skill_view")) +
          diagnostics.reduce((sum, d) => sum + codePointLength(d) + 1, 0) +
          codePointLength(
            `\n[skills listing truncated: showed 0 of ${skills.length} skills; dropped 0 descriptions and ${skills.length} entries — call skill_list for the full catalog]`,
          );
        if (floor <= settings.cap) expect(figures.chars).toBeLessThanOrEqual(settings.cap);
        expect(figures.chars).toBe(codePointLength(text));
      }),
      { numRuns: 400 },
    );
  });

  it("ends with the marker exactly when something was stripped or dropped, with S + E = T", () => {
    fc.assert(
      fc.property(catalogArb, diagnosticsArb, settingsArb, (skills, diagnostics, settings) => {
        const { text, figures } = renderListing(skills, diagnostics, settings);
        const marker = MARKER.exec(text);
        const cut = figures.droppedDescriptions > 0 || figures.droppedEntries > 0;
        expect(marker !== null).toBe(cut);
        expect(figures.shown + figures.droppedEntries).toBe(figures.total);
        expect(figures.total).toBe(skills.length);
        if (marker) {
          expect(marker.slice(1).map(Number)).toEqual([figures.shown, figures.total, figures.droppedDescriptions, figures.droppedEntries]);
        }
      }),
      { numRuns: 400 },
    );
  });

  it("marks exactly the descriptions descMax shortened as cut, and every other shown one as full", () => {
    fc.assert(
      fc.property(catalogArb, settingsArb, (skills, settings) => {
        const { groups } = renderListing(skills, [], settings);
        for (const entry of groups.flatMap((group) => group.entries)) {
          const whole = skills.find((skill) => skill.name === entry.name)?.description.replace(/\r\n|\n|\r/g, " ") ?? "";
          if (entry.state === "cut") expect([...whole].length).toBeGreaterThan(settings.descMax);
          if (entry.state === "full") expect([...whole].length).toBeLessThanOrEqual(settings.descMax);
        }
      }),
      { numRuns: 400 },
    );
  });

  it("strips built-in descriptions last and drops entries only when no description is left", () => {
    fc.assert(
      fc.property(catalogArb, settingsArb, (skills, settings) => {
        const { groups, figures } = renderListing(skills, [], settings);
        const entries = groups.flatMap((group) => group.entries.map((entry) => ({ ...entry, scope: group.scope })));
        const described = (e: { state: string }) => e.state === "full" || e.state === "cut";
        const builtinStripped = entries.some((e) => e.scope === "builtin" && !described(e));
        if (builtinStripped) {
          expect(entries.filter((e) => e.scope !== "builtin").every((e) => !described(e))).toBe(true);
        }
        if (figures.droppedEntries > 0) expect(entries.every((e) => !described(e))).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it("never splits a surrogate pair", () => {
    fc.assert(
      fc.property(catalogArb, settingsArb, (skills, settings) => {
        expect(hasLoneSurrogate(renderListing(skills, [], settings).text)).toBe(false);
      }),
      { numRuns: 400 },
    );
  });

  it("cuts at descMax code points and appends the ellipsis", () => {
    const emoji = "😀".repeat(61);
    const { text } = renderListing([{ name: "e", scope: "builtin", description: emoji }], [], {
      cap: 8000,
      descMax: 60,
      loadHint: "skill_view",
    });
    expect(text.split("\n")[2]).toBe(`- e: ${"😀".repeat(60)}…`);
  });
});

describe("listing order", () => {
  it("sorts names by code point (UTF-8 byte order), not by UTF-16 unit", () => {
    const skills: ListingSkill[] = ["b", "a😀", "a\uFFFF", "a"].map((name) => ({ name, scope: "builtin", description: "d" }));
    const { text } = renderListing(skills, [], { cap: 8000, descMax: 60, loadHint: "skill_view" });
    expect(
      text
        .split("\n")
        .slice(2)
        .map((line) => line.split(":")[0]),
    ).toEqual(["- a", "- a\uFFFF", "- a😀", "- b"]);
  });
});
