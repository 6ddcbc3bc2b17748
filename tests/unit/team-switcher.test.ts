import { describe, expect, it } from "vitest";
import { switchTeamHref } from "@/lib/sections";

describe("where the team switcher goes", () => {
  it("keeps the section when the page is the section's own", () => {
    expect(switchTeamHref("/t/demo", "demo", "lab")).toBe("/t/lab");
    expect(switchTeamHref("/t/demo/listing", "demo", "lab")).toBe("/t/lab/listing");
    expect(switchTeamHref("/t/demo/activation", "demo", "lab")).toBe("/t/lab/activation");
    expect(switchTeamHref("/t/demo/ledger", "demo", "lab")).toBe("/t/lab/ledger");
    expect(switchTeamHref("/t/demo/history", "demo", "lab")).toBe("/t/lab/history");
    expect(switchTeamHref("/t/demo/settings", "demo", "other-team")).toBe("/t/other-team/settings");
  });

  it("goes to the other team's overview from a page of one thing of this team's", () => {
    expect(switchTeamHref("/t/demo/skills/release-checklist", "demo", "lab")).toBe("/t/lab");
    expect(switchTeamHref("/t/demo/ledger/retry-budget", "demo", "lab")).toBe("/t/lab");
    expect(switchTeamHref("/t/demo/history/evaluations/12", "demo", "lab")).toBe("/t/lab");
    expect(switchTeamHref("/t/demo/history/amendments/3", "demo", "lab")).toBe("/t/lab");
    expect(switchTeamHref("/t/demo/activation/runs/7", "demo", "lab")).toBe("/t/lab");
  });

  it("goes to the overview from an address that is no section: /skills alone, an unknown page, a longer team name", () => {
    expect(switchTeamHref("/t/demo/skills", "demo", "lab")).toBe("/t/lab");
    expect(switchTeamHref("/t/demo/nope-page", "demo", "lab")).toBe("/t/lab");
    expect(switchTeamHref("/t/demo/ledgers", "demo", "lab")).toBe("/t/lab");
    expect(switchTeamHref("/t/demo-two/ledger", "demo", "lab")).toBe("/t/lab");
    expect(switchTeamHref("/somewhere/else", "demo", "lab")).toBe("/t/lab");
  });
});
