import { describe, expect, it } from "vitest";
import { formatLint, lintDescription } from "@/lib/lint/lint";

const lint = (description: string, descMax = 60) => formatLint(lintDescription(description, descMax));

const WHAT_AND_WHEN = "[lint] WhatAndWhen: Say what it does AND when to use it (add a 'use when ...' clause)";
const THIRD_PERSON = '[lint] ThirdPerson: Write in third person: "Finds root causes ...", not "I can help you ..."';
const FRONT_LOAD = "[lint] FrontLoad: Front-load the key terms: start with what it does, not a boilerplate opener";
const cutByListing = (n: number) =>
  `[lint] CutByListing: The 'when' clause starts after character ${n} and is cut from the listing: move it forward`;

describe("description lint (docs/skills-and-listing.md#description-lint)", () => {
  it("answers clean for a good description", () => {
    expect(lint("Finds root causes before fixing. Use when a test fails.")).toBe("[lint] clean");
  });

  it("reports Empty alone for blank text", () => {
    expect(lint("")).toBe("[lint] Empty: Description is empty.");
    expect(lint("  \n\t ")).toBe("[lint] Empty: Description is empty.");
  });

  it("reports WhatAndWhen when no when clause occurs", () => {
    expect(lint("Finds root causes of bugs.")).toBe(WHAT_AND_WHEN);
  });

  it.each([
    "when to use",
    "Use When",
    "use this when",
    "USE FOR",
    "when the user",
    "when a ",
    "when an ",
    "whenever ",
    "Before ",
    "after ",
  ])("accepts the when clause %j", (clause) => {
    expect(lint(`Finds things; ${clause}x happens.`)).toBe("[lint] clean");
  });

  it("does not take 'whenever' without the space or 'when a' inside a word as a clause", () => {
    expect(lint("Finds things whenever.")).toBe(WHAT_AND_WHEN);
    expect(lint("Finds things when all is done.")).toBe(WHAT_AND_WHEN);
  });

  it("fires ThirdPerson on whole first- and second-person words only", () => {
    expect(lint("Helps I debug. Use when stuck.")).toContain(THIRD_PERSON);
    for (const word of ["me", "My", "we", "OUR", "you", "Your"]) {
      expect(lint(`Finds bugs for ${word} team. Use when stuck.`)).toBe(THIRD_PERSON);
    }
    expect(lint("Calls the API with a NAME. Use when YOURS breaks.")).toBe("[lint] clean");
    expect(lint("Finds bugs in myapp and ourselves. Use when stuck.")).toBe("[lint] clean");
    expect(lint("Finds bugs (you'd miss). Use when stuck.")).toBe(THIRD_PERSON);
  });

  it.each(["this skill", "This is", "the skill", "a skill", "skill for", "skill to", "Use this skill to", "helps", "A tool"])(
    "fires FrontLoad on the opener %j",
    (opener) => {
      expect(lint(`   ${opener} find bugs. Use when stuck.`)).toBe(FRONT_LOAD);
    },
  );

  it("fires CutByListing when the first when clause starts at descMax or later", () => {
    const at60 = `${"x".repeat(60)}use when stuck`;
    expect(lint(at60)).toBe(cutByListing(60));
    const at59 = `${"x".repeat(59)}use when stuck`;
    expect(lint(at59)).toBe("[lint] clean");
    expect(lint(at60, 80)).toBe("[lint] clean");
  });

  it("counts code points, not UTF-16 units, for CutByListing", () => {
    const emoji = "😀".repeat(59);
    expect(lint(`${emoji} use when stuck`)).toBe(cutByListing(60));
    expect(lint(`${"😀".repeat(58)} use when stuck`)).toBe("[lint] clean");
  });

  it("does not fire CutByListing for a description of at most descMax characters", () => {
    expect(lint("x".repeat(10) + "use when", 10)).toBe(cutByListing(10));
    expect(lint("x".repeat(2) + "use when", 10)).toBe("[lint] clean");
  });

  it("lists several findings in the order of the table", () => {
    expect(lint("This skill helps you.")).toBe([WHAT_AND_WHEN, THIRD_PERSON, FRONT_LOAD].join("\n"));
  });
});
