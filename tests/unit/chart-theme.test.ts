import { describe, expect, it } from "vitest";
import { dayTick, everyWeek } from "@/components/ui/chart-theme";

describe("week axes", () => {
  it("adds the quiet weeks between the first and the last, keeping the weeks that have rows", () => {
    const rows = [
      { week: "2026-11-02", n: 1 },
      { week: "2026-11-23", n: 2 },
      { week: "2026-11-30", n: 3 },
    ];
    expect(everyWeek(rows, (week) => ({ week, n: 0 }))).toEqual([
      { week: "2026-11-02", n: 1 },
      { week: "2026-11-09", n: 0 },
      { week: "2026-11-16", n: 0 },
      { week: "2026-11-23", n: 2 },
      { week: "2026-11-30", n: 3 },
    ]);
  });

  it("leaves no rows and one row as they are, across a change of year", () => {
    expect(everyWeek([], (week) => ({ week }))).toEqual([]);
    expect(everyWeek([{ week: "2026-12-28" }, { week: "2027-01-11" }], (week) => ({ week }))).toEqual([
      { week: "2026-12-28" },
      { week: "2027-01-04" },
      { week: "2027-01-11" },
    ]);
  });

  it("labels a time tick with its UTC day", () => {
    expect(dayTick(Date.UTC(2026, 10, 30, 23, 59))).toBe("11-30");
    expect(dayTick("2026-12-01T00:00:00.000Z")).toBe("12-01");
  });
});
