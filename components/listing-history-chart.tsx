"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { CHART_COLORS, GRID, minuteLabel, TIME_AXIS, TITLED_MARGIN, xTitle, yTitle } from "@/components/ui/chart-theme";

export interface ListingHistoryPoint {
  at: string;
  chars: number;
  cap: number;
  cause: string;
}

/** The listing's length after each catalog change, against the cap in force then, on a time axis. */
export function ListingHistoryChart({ points }: { points: ListingHistoryPoint[] }) {
  const data = points.map((p) => ({ ...p, time: Date.parse(p.at) }));
  return (
    <div className="h-72 w-full" data-testid="listing-history">
      <ResponsiveContainer>
        <LineChart data={data} margin={{ ...TITLED_MARGIN, left: 24 }}>
          <CartesianGrid {...GRID} />
          <XAxis {...TIME_AXIS} label={xTitle("date of the catalog change (UTC)")} />
          <YAxis tickFormatter={(v: number) => v.toLocaleString("en-US")} label={yTitle("characters")} width={64} />
          <Tooltip
            labelFormatter={minuteLabel}
            formatter={(value, name) => [`${Number(value).toLocaleString("en-US")} characters`, name]}
          />
          <Legend verticalAlign="top" height={28} />
          <Line
            type="stepAfter"
            dataKey="chars"
            name="listing length"
            stroke={CHART_COLORS.main}
            strokeWidth={2}
            isAnimationActive={false}
          />
          <Line
            type="stepAfter"
            dataKey="cap"
            name="cap (the most agents get)"
            stroke={CHART_COLORS.bad}
            strokeDasharray="6 4"
            dot={false}
            isAnimationActive={false}
          />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
