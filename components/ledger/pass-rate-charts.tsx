"use client";

import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { percent } from "@/lib/format";
import { CHART_COLORS, everyWeek, GRID, RATE_AXIS, TITLED_MARGIN, WEEK_AXIS, weekLabel, yTitle } from "@/components/ui/chart-theme";
import { RateBars } from "@/components/ui/rate-bars";

export interface WeekPoint {
  week: string;
  rate: number | null;
  confirmed: number;
  refuted: number;
  inconclusive: number;
}

export interface SkillPoint {
  skill: string;
  rate: number | null;
  verdicts: number;
}

/** Verdicts per week as stacked bars, the pass rate as a line on its own axis. */
export function PassRateByWeek({ points }: { points: WeekPoint[] }) {
  return (
    <div className="h-64 w-full" data-testid="pass-rate-week">
      <ResponsiveContainer>
        <ComposedChart
          data={everyWeek(points, (week) => ({ week, rate: null, confirmed: 0, refuted: 0, inconclusive: 0 }))}
          margin={TITLED_MARGIN}
        >
          <CartesianGrid {...GRID} />
          <XAxis {...WEEK_AXIS} />
          <YAxis yAxisId="count" allowDecimals={false} label={yTitle("verdicts")} />
          <YAxis yAxisId="rate" orientation="right" {...RATE_AXIS} label={yTitle("pass rate", "right")} />
          <Tooltip labelFormatter={weekLabel} formatter={(value, name) => (name === "pass rate" ? percent(Number(value)) : value)} />
          <Legend verticalAlign="top" height={48} itemSorter={null} />
          <Bar yAxisId="count" dataKey="confirmed" stackId="v" fill={CHART_COLORS.good} isAnimationActive={false} />
          <Bar yAxisId="count" dataKey="refuted" stackId="v" fill={CHART_COLORS.bad} isAnimationActive={false} />
          <Bar yAxisId="count" dataKey="inconclusive" stackId="v" fill={CHART_COLORS.muted} isAnimationActive={false} />
          <Line
            yAxisId="rate"
            dataKey="rate"
            name="pass rate"
            stroke={CHART_COLORS.main}
            strokeWidth={2}
            connectNulls
            isAnimationActive={false}
          />
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}

/** Pass rate per skill the plans exercise, each with the number of verdicts it rests on. */
export function PassRateBySkill({ points }: { points: SkillPoint[] }) {
  return (
    <RateBars
      rows={points.map((p) => ({ label: `${p.skill} (n=${p.verdicts})`, rate: p.rate }))}
      name="pass rate"
      axisTitle="pass rate (confirmed of judged)"
      rowHeight={44}
      testId="pass-rate-skill"
    />
  );
}
