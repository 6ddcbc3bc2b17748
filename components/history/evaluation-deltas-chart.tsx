"use client";

import {
  Bar,
  BarChart,
  CartesianGrid,
  Rectangle,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type BarShapeProps,
} from "recharts";
import { EVALUATION_OUTCOMES, type EvaluationBar } from "@/lib/evolution/evaluation-outcomes";
import { IMPROVED_ABOVE } from "@/lib/evolution/verdict";
import { CHART_COLORS, GRID, TITLED_MARGIN, xTitle, yTitle } from "@/components/ui/chart-theme";
import { ChartFigure } from "./chart-figure";
import { OUTCOME_SWATCHES } from "./history-colors";

const THRESHOLD = { label: `improved above ${IMPROVED_ABOVE}`, color: CHART_COLORS.title };
const LEGEND = [...EVALUATION_OUTCOMES.map((outcome) => OUTCOME_SWATCHES[outcome]), { ...THRESHOLD, mark: "dashed" as const }];

/**
 * Each evaluation's delta as a bar from 0, oldest on the left: up is better, down worse, the dashed
 * line the delta a verdict of improved must beat (lib/evolution/verdict.ts). A bar's colour says what
 * became of its amendment (lib/evolution/evaluation-outcomes.ts), so a good delta left waiting shows.
 */
export function EvaluationDeltasChart({ bars }: { bars: EvaluationBar[] }) {
  const data = bars.map((bar) => ({ ...bar, name: `#${bar.id}` }));
  return (
    <ChartFigure
      name="Evaluation deltas by outcome"
      testId="evaluation-deltas-chart"
      legend={LEGEND}
      height={256}
      head={
        <>
          <th className="py-1">Evaluation</th>
          <th className="py-1">Skill</th>
          <th className="px-2 py-1 text-right">Delta</th>
          <th className="py-1">Verdict</th>
          <th className="px-2 py-1">Outcome</th>
        </>
      }
      rows={bars.map((bar) => (
        <tr key={bar.id} className="border-t border-slate-100" data-bar={bar.id}>
          <td className="py-1">#{bar.id}</td>
          <td className="py-1 font-mono text-xs">{bar.skill}</td>
          <td className="px-2 py-1 text-right tabular-nums">{bar.delta.toFixed(3)}</td>
          <td className="py-1">{bar.verdict}</td>
          <td className="px-2 py-1" data-outcome={bar.outcome}>
            {OUTCOME_SWATCHES[bar.outcome].label}
          </td>
        </tr>
      ))}
    >
      <ResponsiveContainer>
        <BarChart data={data} margin={TITLED_MARGIN} accessibilityLayer={false}>
          <CartesianGrid {...GRID} vertical={false} />
          <XAxis dataKey="name" minTickGap={8} label={xTitle("evaluation, oldest first")} />
          <YAxis width={60} tickFormatter={(delta: number) => delta.toFixed(2)} label={yTitle("delta")} />
          <Tooltip
            formatter={(delta, _name, item) => [
              `${Number(delta).toFixed(3)} · ${OUTCOME_SWATCHES[(item.payload as EvaluationBar).outcome].label}`,
              (item.payload as EvaluationBar).skill,
            ]}
          />
          <ReferenceLine y={0} stroke={CHART_COLORS.title} />
          <ReferenceLine y={IMPROVED_ABOVE} stroke={THRESHOLD.color} strokeDasharray="4 3" ifOverflow="extendDomain" />
          <Bar dataKey="delta" name="delta" isAnimationActive={false} maxBarSize={40} shape={OutcomeBar} />
        </BarChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
}

/** A bar in its outcome's colour. */
function OutcomeBar(props: BarShapeProps) {
  const { outcome } = props.payload as EvaluationBar;
  return <Rectangle {...props} fill={OUTCOME_SWATCHES[outcome].color} data-outcome={outcome} />;
}
