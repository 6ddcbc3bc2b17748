"use client";

import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type DotItemDotProps,
} from "recharts";
import { FEW_VERDICTS, rateWithN, type WeekRate } from "@/lib/ledger/week-rate";
import { CHART_COLORS, everyWeek, GRID, RATE_AXIS, TITLED_MARGIN, WEEK_AXIS, weekLabel, yTitle } from "@/components/ui/chart-theme";
import { RateBars } from "@/components/ui/rate-bars";

export interface SkillPoint {
  skill: string;
  rate: number | null;
  verdicts: number;
}

/**
 * A week's pass-rate point: filled when it rests on FEW_VERDICTS or more verdicts, hollow below,
 * so a 0% or 100% from one verdict is not read like one from twenty.
 */
function WeekDot({ cx, cy, payload, index }: DotItemDotProps) {
  const week = payload as WeekRate;
  if (cx === undefined || cy === undefined || week.rate === null) return <g key={index} />;
  return (
    <circle
      key={index}
      cx={cx}
      cy={cy}
      r={5}
      stroke={CHART_COLORS.main}
      strokeWidth={2}
      fill={week.few ? "#ffffff" : CHART_COLORS.main}
      data-week={week.week}
      data-few={week.few}
    />
  );
}

/** The week chart's series in the order the bars stack and the legend reads, which the tooltip follows too. */
const SERIES = ["confirmed", "refuted", "inconclusive", "pass rate"];

/** Verdicts per week as stacked bars, the pass rate as a line on its own axis, each point with its n. */
export function PassRateByWeek({ points }: { points: WeekRate[] }) {
  return (
    <div data-testid="pass-rate-week">
      <div className="h-64 w-full">
        <ResponsiveContainer>
          <ComposedChart
            data={everyWeek(points, (week) => ({ week, rate: null, confirmed: 0, refuted: 0, inconclusive: 0, verdicts: 0, few: true }))}
            margin={TITLED_MARGIN}
          >
            <CartesianGrid {...GRID} />
            <XAxis {...WEEK_AXIS} />
            <YAxis yAxisId="count" allowDecimals={false} label={yTitle("verdicts")} />
            <YAxis yAxisId="rate" orientation="right" {...RATE_AXIS} label={yTitle("pass rate", "right")} />
            <Tooltip
              labelFormatter={weekLabel}
              itemSorter={(item) => SERIES.indexOf(String(item.name))}
              formatter={(value, name, item) => (name === "pass rate" ? rateWithN(item.payload as WeekRate) : value)}
            />
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
              dot={WeekDot}
              connectNulls
              isAnimationActive={false}
            />
          </ComposedChart>
        </ResponsiveContainer>
      </div>
      <p className="mt-1 flex items-center gap-2 text-xs text-slate-600" data-testid="few-verdicts-legend">
        <svg width="12" height="12" className="shrink-0" aria-hidden="true">
          <circle cx="6" cy="6" r="4" stroke={CHART_COLORS.main} strokeWidth="2" fill="#ffffff" />
        </svg>
        A hollow point rests on fewer than {FEW_VERDICTS} verdicts: one verdict more or less swings it widely.
      </p>
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
