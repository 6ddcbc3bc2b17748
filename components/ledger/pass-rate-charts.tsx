"use client";

import { Bar, BarChart, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { percent } from "@/lib/format";

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
        <ComposedChart data={points} margin={{ left: 8, right: 8, top: 8, bottom: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis dataKey="week" tickFormatter={(v: string) => v.slice(5)} />
          <YAxis yAxisId="count" allowDecimals={false} />
          <YAxis yAxisId="rate" orientation="right" domain={[0, 1]} tickFormatter={percent} />
          <Tooltip formatter={(value, name) => (name === "pass rate" ? percent(Number(value)) : value)} />
          <Legend itemSorter={null} />
          <Bar yAxisId="count" dataKey="confirmed" stackId="v" fill="#059669" isAnimationActive={false} />
          <Bar yAxisId="count" dataKey="refuted" stackId="v" fill="#dc2626" isAnimationActive={false} />
          <Bar yAxisId="count" dataKey="inconclusive" stackId="v" fill="#94a3b8" isAnimationActive={false} />
          <Line yAxisId="rate" dataKey="rate" name="pass rate" stroke="#4338ca" strokeWidth={2} connectNulls isAnimationActive={false} />
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}

/** Pass rate per skill the plans exercise. */
export function PassRateBySkill({ points }: { points: SkillPoint[] }) {
  return (
    <div className="w-full" style={{ height: Math.max(120, points.length * 44 + 40) }} data-testid="pass-rate-skill">
      <ResponsiveContainer>
        <BarChart data={points} layout="vertical" margin={{ left: 8, right: 24, top: 8, bottom: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis type="number" domain={[0, 1]} tickFormatter={percent} />
          <YAxis type="category" dataKey="skill" width={200} />
          <Tooltip formatter={(value) => percent(Number(value))} />
          <Bar dataKey="rate" name="pass rate" fill="#4338ca" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
