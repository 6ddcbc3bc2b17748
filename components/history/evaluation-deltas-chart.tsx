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
import { twoDecimals } from "@/lib/format";
import { CHART_COLORS, GRID, TITLED_MARGIN, xTitle, yTitle } from "@/components/ui/chart-theme";
import { ChartFigure } from "./chart-figure";
import { OUTCOME_SWATCHES } from "./history-colors";

const THRESHOLD = { label: `improved above ${IMPROVED_ABOVE}`, color: CHART_COLORS.title };
const LEGEND = [...EVALUATION_OUTCOMES.map((outcome) => OUTCOME_SWATCHES[outcome]), { ...THRESHOLD, mark: "dashed" as const }];

/**
 * Each evaluation's delta as a bar from 0, oldest on the left: up is better, down worse, the dashed
 * line the delta a verdict of improved must beat (lib/evolution/verdict.ts). A bar's colour says what
 * became of its amendment (lib/evolution/evaluation-outcomes.ts), so a good delta left waiting shows;
 * its label is the amendment's number, the one the queue asks a lead to approve. `note` says what it
 * leaves out.
 */
export function EvaluationDeltasChart({ bars, note }: { bars: EvaluationBar[]; note: string | null }) {
  const data = bars.map((bar) => ({ ...bar, name: `#${bar.amendmentId}` }));
  return (
    <ChartFigure
      name="Evaluation deltas by outcome"
      testId="evaluation-deltas-chart"
      legend={LEGEND}
      height={256}
      below={
        note && (
          <p className="mt-1 text-xs text-slate-600" data-testid="chart-note">
            {note}
          </p>
        )
      }
      head={
        <>
          <th className="py-1">Amendment</th>
          <th className="py-1">Skill</th>
          <th className="px-2 py-1 text-right">Delta</th>
          <th className="py-1">Verdict</th>
          <th className="px-2 py-1">Outcome</th>
        </>
      }
      rows={bars.map((bar) => (
        <tr key={bar.id} className="border-t border-slate-100" data-bar={bar.id}>
          <td className="py-1">#{bar.amendmentId}</td>
          <td className="py-1 font-mono text-xs">{bar.skill}</td>
          <td className="px-2 py-1 text-right tabular-nums">{twoDecimals(bar.delta, { signed: true })}</td>
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
          <XAxis dataKey="name" minTickGap={8} label={xTitle("amendment, oldest evaluation first")} />
          <YAxis width={60} tickFormatter={(delta: number) => twoDecimals(delta)} label={yTitle("delta")} />
          <Tooltip
            formatter={(delta, _name, item) => [
              `${twoDecimals(Number(delta), { signed: true })} · ${OUTCOME_SWATCHES[(item.payload as EvaluationBar).outcome].label}`,
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
