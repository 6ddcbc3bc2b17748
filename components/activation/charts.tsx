"use client";

import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { percent } from "@/lib/format";
import { dayTick, TITLED_MARGIN, xTitle, yTitle } from "@/components/chart-axes";

export interface RunPoint {
  run: string;
  /** When the run started, epoch milliseconds: runs sit on a time axis. */
  time: number;
  activation: number | null;
  D: number | null;
  P: number | null;
  G: number | null;
  falseTriggers: number | null;
}

/** Activation by class and false triggers, run by run, at the time each run started. */
export function RunsChart({ points }: { points: RunPoint[] }) {
  return (
    <div className="h-64 w-full" data-testid="runs-chart">
      <ResponsiveContainer>
        <LineChart data={points} margin={TITLED_MARGIN}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis
            dataKey="time"
            type="number"
            scale="time"
            domain={["dataMin", "dataMax"]}
            padding={{ left: 16, right: 16 }}
            tickFormatter={dayTick}
            label={xTitle("run started (UTC)")}
          />
          <YAxis domain={[0, 1]} tickFormatter={percent} label={yTitle("share of prompts")} />
          <Tooltip
            labelFormatter={(time, payload) =>
              `run ${payload?.[0]?.payload?.run ?? ""} · ${new Date(Number(time)).toISOString().slice(0, 16).replace("T", " ")}`
            }
            formatter={(value) => (value === null ? "—" : percent(Number(value)))}
          />
          <Legend verticalAlign="top" height={52} itemSorter={null} wrapperStyle={{ paddingBottom: 8 }} />
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

/** Recall per skill in one run, each with the number of prompt runs it rests on. */
export function RecallChart({ points }: { points: { skill: string; recall: number; expected: number }[] }) {
  const data = points.map((p) => ({ ...p, label: `${p.skill} (n=${p.expected})` }));
  return (
    <div className="w-full" style={{ height: Math.max(140, points.length * 36 + 60) }} data-testid="recall-chart">
      <ResponsiveContainer>
        <BarChart data={data} layout="vertical" margin={TITLED_MARGIN}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis type="number" domain={[0, 1]} tickFormatter={percent} label={xTitle("recall (expected prompts that loaded it)")} />
          <YAxis type="category" dataKey="label" width={170} tick={{ fontSize: 12 }} />
          <Tooltip formatter={(value) => percent(Number(value))} />
          <Bar dataKey="recall" fill="#4338ca" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
