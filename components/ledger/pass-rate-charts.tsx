"use client";

import { Bar, BarChart, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { percent } from "@/lib/format";
import { everyWeek, TITLED_MARGIN, xTitle, yTitle } from "@/components/chart-axes";

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
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis dataKey="week" tickFormatter={(v: string) => v.slice(5)} label={xTitle("week starting (Monday, UTC)")} />
          <YAxis yAxisId="count" allowDecimals={false} label={yTitle("verdicts")} />
          <YAxis yAxisId="rate" orientation="right" domain={[0, 1]} tickFormatter={percent} label={yTitle("pass rate", "right")} />
          <Tooltip
            labelFormatter={(v) => `week of ${String(v)}`}
            formatter={(value, name) => (name === "pass rate" ? percent(Number(value)) : value)}
          />
          <Legend verticalAlign="top" height={48} itemSorter={null} />
          <Bar yAxisId="count" dataKey="confirmed" stackId="v" fill="#059669" isAnimationActive={false} />
          <Bar yAxisId="count" dataKey="refuted" stackId="v" fill="#dc2626" isAnimationActive={false} />
          <Bar yAxisId="count" dataKey="inconclusive" stackId="v" fill="#94a3b8" isAnimationActive={false} />
          <Line yAxisId="rate" dataKey="rate" name="pass rate" stroke="#4338ca" strokeWidth={2} connectNulls isAnimationActive={false} />
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}

/** Pass rate per skill the plans exercise, each with the number of verdicts it rests on. */
export function PassRateBySkill({ points }: { points: SkillPoint[] }) {
  const data = points.map((p) => ({ ...p, label: `${p.skill} (n=${p.verdicts})` }));
  return (
    <div className="w-full" style={{ height: Math.max(140, points.length * 44 + 60) }} data-testid="pass-rate-skill">
      <ResponsiveContainer>
        <BarChart data={data} layout="vertical" margin={TITLED_MARGIN}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis type="number" domain={[0, 1]} tickFormatter={percent} label={xTitle("pass rate (confirmed of judged)")} />
          <YAxis type="category" dataKey="label" width={170} tick={{ fontSize: 12 }} />
          <Tooltip formatter={(value) => percent(Number(value))} />
          <Bar dataKey="rate" name="pass rate" fill="#4338ca" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
