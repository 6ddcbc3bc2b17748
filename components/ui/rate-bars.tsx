"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { percent } from "@/lib/format";
import { CHART_COLORS, GRID, RATE_AXIS, TITLED_MARGIN, xTitle } from "./chart-theme";

/**
 * One horizontal bar per row, each a rate from 0 to 100%, labelled with what it is and the count it
 * rests on: recall per skill, pass rate per skill. The chart grows with its rows so labels stay legible.
 */
export function RateBars({
  rows,
  name,
  axisTitle,
  rowHeight,
  testId,
}: {
  rows: { label: string; rate: number | null }[];
  /** What the rate is, as the tooltip says it. */
  name: string;
  axisTitle: string;
  rowHeight: number;
  testId: string;
}) {
  return (
    <div className="w-full" style={{ height: Math.max(140, rows.length * rowHeight + 60) }} data-testid={testId}>
      <ResponsiveContainer>
        <BarChart data={rows} layout="vertical" margin={TITLED_MARGIN}>
          <CartesianGrid {...GRID} />
          <XAxis type="number" {...RATE_AXIS} label={xTitle(axisTitle)} />
          <YAxis type="category" dataKey="label" width={170} tick={{ fontSize: 12 }} />
          <Tooltip formatter={(value) => percent(Number(value))} />
          <Bar dataKey="rate" name={name} fill={CHART_COLORS.main} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
