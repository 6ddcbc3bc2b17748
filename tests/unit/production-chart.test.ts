import { describe, expect, it } from "vitest";
import { productionChart } from "@/lib/pages/production";
import { CHARACTER_WIDTH, placeVersionLabels, versionsLabel } from "@/components/skill/marker-labels";
import type { UtcDay } from "@/lib/usage/rollups";

const NOW = new Date("2026-12-05T10:00:00Z");
const day = (iso: string) => iso as UtcDay;
const activations = (iso: string, proactive: number) => ({ day: day(iso), proactive, slash: 0, nested: 0 });

describe("the skill page's production chart", () => {
  it("starts its axis at the first day the team's agents reported, not 90 days back, and keeps every day after", () => {
    const { chart, markers } = productionChart(
      [activations("2026-11-20", 2), activations("2026-12-05", 1)],
      [],
      NOW,
      90,
      day("2026-11-08"),
    );
    expect(chart[0]).toEqual({ day: "2026-11-08", proactive: 0, typed: 0, nested: 0 });
    expect(chart.at(-1)).toEqual({ day: "2026-12-05", proactive: 1, typed: 0, nested: 0 });
    expect(chart).toHaveLength(28);
    expect(chart.find((d) => d.day === "2026-11-20")?.proactive).toBe(2);
    expect(markers).toEqual([]);
  });

  it("starts earlier for a version that went live before telemetry began, inside the window", () => {
    const { chart, markers } = productionChart(
      [activations("2026-11-10", 1)],
      [
        { version: 1, from: day("2026-11-04") },
        { version: 2, from: day("2026-12-01") },
        { version: 3, from: day("2026-12-01") },
      ],
      NOW,
      90,
      day("2026-11-08"),
    );
    expect(chart[0]?.day).toBe("2026-11-04");
    expect(markers).toEqual([
      { day: "2026-11-04", versions: [1] },
      { day: "2026-12-01", versions: [2, 3] },
    ]);
  });

  it("keeps to the window: a version older than 90 days has no marker, and telemetry older than it starts the axis at its first day", () => {
    const { chart, markers } = productionChart(
      [activations("2026-10-01", 1)],
      [{ version: 1, from: day("2026-01-01") }],
      NOW,
      90,
      day("2026-09-07"),
    );
    expect([chart[0]?.day, chart.length, markers]).toEqual(["2026-09-07", 90, []]);
  });
});

describe("the version labels above the production chart's lines", () => {
  const bounds = { left: 40, right: 400 };

  it("says one version, two, or a run of them", () => {
    expect([versionsLabel([2]), versionsLabel([1, 2]), versionsLabel([2, 3, 4, 5])]).toEqual(["v2", "v1, v2", "v2–v5"]);
  });

  it("writes each label over its own line when they are apart", () => {
    expect(
      placeVersionLabels(
        [
          { x: 100, versions: [1] },
          { x: 300, versions: [2] },
        ],
        bounds,
      ),
    ).toEqual([
      { x: 100, text: "v1", versions: [1] },
      { x: 300, text: "v2", versions: [2] },
    ]);
  });

  it("makes one label of lines whose labels would touch, centred over them, so none overlaps another", () => {
    // A day apart on a phone: "v2" and "v3, v4" would print as "v2v3, v4".
    const placed = placeVersionLabels(
      [
        { x: 300, versions: [2] },
        { x: 309, versions: [3, 4] },
        { x: 120, versions: [1] },
      ],
      bounds,
    );
    expect(placed).toEqual([
      { x: 120, text: "v1", versions: [1] },
      { x: 304.5, text: "v2–v4", versions: [2, 3, 4] },
    ]);
  });

  it("merges again when a merged label grows into the one before it", () => {
    // v1 and v2 fit apart; v2 and v3 do not, and "v2, v3" is wide enough to reach v1.
    const lines = [330, 352, 358].map((x, i) => ({ x, versions: [i + 1] }));
    expect(placeVersionLabels(lines, bounds)).toEqual([{ x: 344, text: "v1–v3", versions: [1, 2, 3] }]);
  });

  it("keeps a label inside the plot", () => {
    expect(placeVersionLabels([{ x: 398, versions: [5] }], bounds)).toEqual([
      { x: bounds.right - CHARACTER_WIDTH, text: "v5", versions: [5] },
    ]);
  });
});
