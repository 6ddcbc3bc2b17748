"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { percent } from "@/lib/format";
import { CHART_COLORS, GRID, minuteLabel, RATE_AXIS, TIME_AXIS, TITLED_MARGIN, xTitle, yTitle } from "@/components/ui/chart-theme";
import { RateBars } from "@/components/ui/rate-bars";

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
          <CartesianGrid {...GRID} />
          <XAxis {...TIME_AXIS} padding={{ left: 16, right: 16 }} label={xTitle("run started (UTC)")} />
          <YAxis {...RATE_AXIS} label={yTitle("share of prompts")} />
          <Tooltip
            labelFormatter={(time, payload) => `run ${payload?.[0]?.payload?.run ?? ""} · ${minuteLabel(time)}`}
            formatter={(value) => (value === null ? "—" : percent(Number(value)))}
          />
          <Legend verticalAlign="top" height={52} itemSorter={null} wrapperStyle={{ paddingBottom: 8 }} />
          <Line dataKey="activation" name="activation" stroke={CHART_COLORS.main} strokeWidth={3} connectNulls isAnimationActive={false} />
          <Line dataKey="D" name="D (keywords)" stroke={CHART_COLORS.good} connectNulls isAnimationActive={false} />
          <Line dataKey="P" name="P (paraphrase)" stroke={CHART_COLORS.caution} connectNulls isAnimationActive={false} />
          <Line dataKey="G" name="G (nothing expected)" stroke={CHART_COLORS.neutral} connectNulls isAnimationActive={false} />
          <Line
            dataKey="falseTriggers"
            name="false triggers"
            stroke={CHART_COLORS.bad}
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
  return (
    <RateBars
      rows={points.map((p) => ({ label: `${p.skill} (n=${p.expected})`, rate: p.recall }))}
      name="recall"
      axisTitle="recall (expected prompts that loaded it)"
      rowHeight={36}
      testId="recall-chart"
    />
  );
}
