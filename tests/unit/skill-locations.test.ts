import { describe, expect, it } from "vitest";
import { describeSkillsBelow, skillLocations } from "@/lib/skills/skill-locations";

/** Where a tree's skill folders sit below its top (issue 39): counted by the folder holding them, grouped by layout. */
describe("skill locations", () => {
  it("counts SKILL.md files by the folder that holds each skill folder, hidden or not, but not the tree's own top or installed packages", () => {
    const locations = skillLocations([
      "SKILL.md",
      "at-the-top/SKILL.md",
      "svc-a/.claude/skills/deploy/SKILL.md",
      "svc-b/.claude/skills/review/SKILL.md",
      "svc-b/.claude/skills/triage/SKILL.md",
      "svc-b/.claude/skills/triage/references/notes.md",
      "node_modules/some-package/skills/x/SKILL.md",
      ".git/modules/y/skills/z/SKILL.md",
    ]);
    expect(locations).toEqual([
      {
        where: "*/.claude/skills/",
        count: 3,
        folders: [
          { path: "svc-b/.claude/skills/", count: 2 },
          { path: "svc-a/.claude/skills/", count: 1 },
        ],
      },
    ]);
    expect(describeSkillsBelow(locations)).toBe(
      "3 skill folder(s) sit deeper than a sync reads (the folders at the top of the tree): 3 in */.claude/skills/ (2 folders: 2 in svc-b/.claude/skills/, 1 in svc-a/.claude/skills/). " +
        "A sync reads one folder of skill folders: sync the one that holds most (svc-b/.claude/skills/), or gather the skill folders into one folder and sync that.",
    );
  });

  it("keeps folders whose own names differ apart, and says how many more places there are past three", () => {
    const paths = [
      ...["a", "b", "c", "d"].map((name) => `skills/.curated/${name}/SKILL.md`),
      ...["e", "f", "g"].map((name) => `skills/.system/${name}/SKILL.md`),
      "skills/.experimental/h/SKILL.md",
      "skills/.experimental/i/SKILL.md",
      "docs/examples/j/SKILL.md",
      "tools/k/SKILL.md",
    ];
    expect(describeSkillsBelow(skillLocations(paths))).toBe(
      "11 skill folder(s) sit deeper than a sync reads (the folders at the top of the tree): " +
        "4 in skills/.curated/, 3 in skills/.system/, 2 in skills/.experimental/, 2 in 2 more place(s). " +
        "A sync reads one folder of skill folders: sync the one that holds most (skills/.curated/), or gather the skill folders into one folder and sync that.",
    );
  });
});
