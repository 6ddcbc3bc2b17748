"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

export interface PromotionWeek {
  week: string;
  promoted: number;
  overridden: number;
  rolledBack: number;
}

/** Promotions, manual overrides and rollbacks per week. */
export function PromotionsChart({ weeks }: { weeks: PromotionWeek[] }) {
  return (
    <div className="h-56 w-full" data-testid="promotions-chart">
      <ResponsiveContainer>
        <BarChart data={weeks} margin={{ left: 8, right: 8, top: 8, bottom: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis dataKey="week" tickFormatter={(v: string) => v.slice(5)} />
          <YAxis allowDecimals={false} />
          <Tooltip />
          <Legend itemSorter={null} />
          <Bar dataKey="promoted" name="promoted" stackId="p" fill="#059669" isAnimationActive={false} />
          <Bar dataKey="overridden" name="overridden by a lead" stackId="p" fill="#d97706" isAnimationActive={false} />
          <Bar dataKey="rolledBack" name="rolled back" fill="#dc2626" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
