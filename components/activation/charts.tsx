"use client";

import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { percent } from "@/lib/format";

export interface RunPoint {
  run: string;
  activation: number | null;
  D: number | null;
  P: number | null;
  G: number | null;
  falseTriggers: number | null;
}

/** Activation by class and false triggers, run by run. */
export function RunsChart({ points }: { points: RunPoint[] }) {
  return (
    <div className="h-64 w-full" data-testid="runs-chart">
      <ResponsiveContainer>
        <LineChart data={points} margin={{ left: 8, right: 16, top: 8, bottom: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis dataKey="run" />
          <YAxis domain={[0, 1]} tickFormatter={percent} />
          <Tooltip formatter={(value) => (value === null ? "—" : percent(Number(value)))} />
          <Legend itemSorter={null} />
          <Line dataKey="activation" name="activation" stroke="#4338ca" strokeWidth={3} connectNulls isAnimationActive={false} />
          <Line dataKey="D" name="D (keywords)" stroke="#059669" connectNulls isAnimationActive={false} />
          <Line dataKey="P" name="P (paraphrase)" stroke="#d97706" connectNulls isAnimationActive={false} />
          <Line dataKey="G" name="G (nothing expected)" stroke="#64748b" connectNulls isAnimationActive={false} />
          <Line
            dataKey="falseTriggers"
            name="false triggers"
            stroke="#dc2626"
            strokeDasharray="5 4"
            connectNulls
            isAnimationActive={false}
          />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}

/** Recall per skill in one run. */
export function RecallChart({ points }: { points: { skill: string; recall: number }[] }) {
  return (
    <div className="w-full" style={{ height: Math.max(120, points.length * 36 + 40) }} data-testid="recall-chart">
      <ResponsiveContainer>
        <BarChart data={points} layout="vertical" margin={{ left: 8, right: 24, top: 8, bottom: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis type="number" domain={[0, 1]} tickFormatter={percent} />
          <YAxis type="category" dataKey="skill" width={220} />
          <Tooltip formatter={(value) => percent(Number(value))} />
          <Bar dataKey="recall" fill="#4338ca" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
