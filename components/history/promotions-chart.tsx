"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { CHART_COLORS, everyWeek, GRID, TITLED_MARGIN, WEEK_AXIS, weekLabel, yTitle } from "@/components/ui/chart-theme";

export interface PromotionWeek {
  week: string;
  promoted: number;
  overridden: number;
  rolledBack: number;
}

/** Promotions, manual overrides and rollbacks per week, every week shown, empty ones too. */
export function PromotionsChart({ weeks }: { weeks: PromotionWeek[] }) {
  return (
    <div className="h-64 w-full" data-testid="promotions-chart">
      <ResponsiveContainer>
        <BarChart data={everyWeek(weeks, (week) => ({ week, promoted: 0, overridden: 0, rolledBack: 0 }))} margin={TITLED_MARGIN}>
          <CartesianGrid {...GRID} />
          <XAxis {...WEEK_AXIS} />
          <YAxis allowDecimals={false} label={yTitle("changes")} />
          <Tooltip labelFormatter={weekLabel} />
          <Legend verticalAlign="top" height={28} itemSorter={null} />
          <Bar dataKey="promoted" name="promoted" stackId="p" fill={CHART_COLORS.good} isAnimationActive={false} />
          <Bar dataKey="overridden" name="overridden by a lead" stackId="p" fill={CHART_COLORS.caution} isAnimationActive={false} />
          <Bar dataKey="rolledBack" name="rolled back" fill={CHART_COLORS.bad} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
