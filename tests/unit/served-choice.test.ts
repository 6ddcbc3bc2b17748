import { describe, expect, it } from "vitest";
import { requireKnownLabel, servedChoice, servedOf, type TeamLabels } from "@/lib/skills/catalog";
import type { LabelName } from "@/lib/skills/label";

/** The one rule of what a reader gets (docs/learned-skills.md#labels), and the refusal of a label nobody has. */
describe("servedChoice", () => {
  it("gives the label the reader asked for where the skill has it, else the lead's pin, else the latest", () => {
    expect(servedChoice(5, 2, 4)).toEqual({ version: 4, why: "label" });
    expect(servedChoice(5, 2, null)).toEqual({ version: 2, why: "pinned" });
    expect(servedChoice(5, null, null)).toEqual({ version: 5, why: "latest" });
    expect(servedChoice(5, null, 5)).toEqual({ version: 5, why: "label" });
  });

  it("says it of a catalog skill, with the label's name", () => {
    const label = "canary" as LabelName;
    expect(servedOf({ version: 3, label: { name: label, latest: 5 } })).toEqual({ version: 3, why: "label", label: "canary" });
    expect(servedOf({ version: 2, pinned: { latest: 5 } })).toEqual({ version: 2, why: "pinned" });
    expect(servedOf({ version: 5 })).toEqual({ version: 5, why: "latest" });
  });
});

describe("requireKnownLabel", () => {
  const labels: TeamLabels = new Map([
    ["release-notes", [{ label: "staging" as LabelName, version: 2 }]],
    [
      "deploy-guide",
      [
        { label: "canary" as LabelName, version: 1 },
        { label: "staging" as LabelName, version: 1 },
      ],
    ],
  ]);

  it("lets a label some skill has through, and refuses one none has with the team's labels in byte order, each once", () => {
    expect(() => requireKnownLabel(labels, "staging" as LabelName)).not.toThrow();
    expect(() => requireKnownLabel(labels, "stagin" as LabelName)).toThrow(
      "no skill of this team has the label 'stagin'; the team's labels are canary, staging",
    );
    expect(() => requireKnownLabel(new Map(), "staging" as LabelName)).toThrow(
      "no skill of this team has the label 'staging'; the team has no labels",
    );
  });
});
