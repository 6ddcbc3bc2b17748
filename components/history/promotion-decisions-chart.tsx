"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { noDecisions, PROMOTION_DECISIONS, type DecisionWeek } from "@/lib/evolution/promotion-decisions";
import { everyWeek, GRID, TITLED_MARGIN, WEEK_AXIS, weekLabel, yTitle } from "@/components/ui/chart-theme";
import { ChartFigure } from "./chart-figure";
import { DECISION_SWATCHES } from "./history-colors";

const LEGEND = PROMOTION_DECISIONS.map((decision) => DECISION_SWATCHES[decision]);

/** Every kind of promotion decision per week (lib/evolution/promotion-decisions.ts), stacked, the quiet weeks shown too. */
export function PromotionDecisionsChart({ weeks }: { weeks: DecisionWeek[] }) {
  return (
    <ChartFigure
      name="Promotion decisions by week"
      testId="promotion-decisions-chart"
      legend={LEGEND}
      height={256}
      head={
        <>
          <th className="py-1">Week of</th>
          {PROMOTION_DECISIONS.map((decision) => (
            <th key={decision} className="px-2 py-1 text-right">
              {DECISION_SWATCHES[decision].label}
            </th>
          ))}
        </>
      }
      rows={weeks.map((week) => (
        <tr key={week.week} className="border-t border-slate-100" data-week={week.week}>
          <td className="py-1 tabular-nums">{week.week}</td>
          {PROMOTION_DECISIONS.map((decision) => (
            <td key={decision} className="px-2 py-1 text-right tabular-nums" data-decision={decision}>
              {week[decision]}
            </td>
          ))}
        </tr>
      ))}
    >
      <ResponsiveContainer>
        <BarChart data={everyWeek(weeks, noDecisions)} margin={TITLED_MARGIN} accessibilityLayer={false}>
          <CartesianGrid {...GRID} />
          <XAxis {...WEEK_AXIS} />
          <YAxis allowDecimals={false} width={40} label={yTitle("decisions")} />
          <Tooltip labelFormatter={weekLabel} />
          {PROMOTION_DECISIONS.map((decision) => (
            <Bar
              key={decision}
              dataKey={decision}
              name={DECISION_SWATCHES[decision].label}
              stackId="decisions"
              fill={DECISION_SWATCHES[decision].color}
              stroke="#fff"
              strokeWidth={1}
              maxBarSize={64}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
}
