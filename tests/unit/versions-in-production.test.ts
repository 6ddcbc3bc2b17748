import { describe, expect, it } from "vitest";
import { per100Prompts, typedOnly, versionsInProduction, type ActivationDay } from "@/lib/usage/activations";
import type { UtcDay } from "@/lib/usage/rollups";

const day = (d: string) => d as UtcDay;
const activations = (d: string, proactive: number, slash = 0): ActivationDay => ({ day: day(d), proactive, slash, nested: 0 });

describe("proactive activations per 100 prompts, per version", () => {
  it("counts each version's live days: from the day it was made to the day before the next", () => {
    const versions = [
      { version: 2, madeAt: new Date("2026-11-20T15:00:00Z") },
      { version: 1, madeAt: new Date("2026-11-01T09:00:00Z") },
    ];
    const days = [
      activations("2026-11-10", 2, 5),
      activations("2026-11-19", 1),
      activations("2026-11-20", 6),
      activations("2026-11-30", 4),
    ];
    const prompts = [
      { day: day("2026-11-10"), prompts: 100 },
      { day: day("2026-11-19"), prompts: 100 },
      { day: day("2026-11-20"), prompts: 50 },
      { day: day("2026-11-30"), prompts: 50 },
    ];
    expect(versionsInProduction(versions, days, prompts, new Date("2026-12-02T12:00:00Z"))).toEqual([
      { version: 1, from: "2026-11-01", to: "2026-11-19", proactive: 3, prompts: 200, per100Prompts: 1.5 },
      { version: 2, from: "2026-11-20", to: "2026-12-02", proactive: 10, prompts: 100, per100Prompts: 10 },
    ]);
  });

  it("gives a version replaced on the day it was made no days, and a rate of null without prompts", () => {
    const versions = [
      { version: 1, madeAt: new Date("2026-12-01T08:00:00Z") },
      { version: 2, madeAt: new Date("2026-12-01T09:00:00Z") },
    ];
    expect(versionsInProduction(versions, [activations("2026-12-01", 3)], [], new Date("2026-12-01T10:00:00Z"))).toEqual([
      { version: 1, from: "2026-12-01", to: "2026-11-30", proactive: 0, prompts: 0, per100Prompts: null },
      { version: 2, from: "2026-12-01", to: "2026-12-01", proactive: 3, prompts: 0, per100Prompts: null },
    ]);
  });

  it("rounds to one decimal and flags a skill only ever typed", () => {
    expect(per100Prompts(1, 3)).toBe(33.3);
    expect(per100Prompts(0, 0)).toBeNull();
    expect(typedOnly({ proactive: 0, slash: 3, nested: 0 })).toBe(true);
    expect(typedOnly({ proactive: 1, slash: 3, nested: 0 })).toBe(false);
    expect(typedOnly({ proactive: 0, slash: 0, nested: 2 })).toBe(false);
    expect(typedOnly(undefined)).toBe(false);
  });
});
