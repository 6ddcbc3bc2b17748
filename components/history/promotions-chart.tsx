"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { everyWeek, TITLED_MARGIN, xTitle, yTitle } from "@/components/chart-axes";

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
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis dataKey="week" tickFormatter={(v: string) => v.slice(5)} label={xTitle("week starting (Monday, UTC)")} />
          <YAxis allowDecimals={false} label={yTitle("changes")} />
          <Tooltip labelFormatter={(v) => `week of ${String(v)}`} />
          <Legend verticalAlign="top" height={28} itemSorter={null} />
          <Bar dataKey="promoted" name="promoted" stackId="p" fill="#059669" isAnimationActive={false} />
          <Bar dataKey="overridden" name="overridden by a lead" stackId="p" fill="#d97706" isAnimationActive={false} />
          <Bar dataKey="rolledBack" name="rolled back" fill="#dc2626" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
