"use client";

import {
  CartesianGrid,
  ResponsiveContainer,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
  type ScatterShapeProps,
  type YAxisTickContentProps,
} from "recharts";
import type { CaseChange } from "@/lib/evolution/verdict";
import type { PlottedCase } from "@/lib/evolution/case-plot";
import { CHART_COLORS, GRID, TITLED_MARGIN, xTitle } from "@/components/ui/chart-theme";
import { twoDecimals } from "@/lib/format";
import { ChartFigure } from "./chart-figure";
import { CHANGE_SWATCHES, type Swatch } from "./history-colors";

const CHANGES: CaseChange[] = ["regressed", "unchanged", "improved"];
const SCORE = { label: "case score", color: CHANGE_SWATCHES.unchanged.color };
const LEGEND = [
  { ...SCORE, label: "original skill", mark: "ring" as const },
  { ...SCORE, label: "amended skill", mark: "dot" as const },
  ...CHANGES.map((change): Swatch => CHANGE_SWATCHES[change]),
];
const ROW = 28;

interface Point {
  row: number;
  score: number;
  end: "original" | "amended";
  case: PlottedCase;
}

/**
 * Each judged case as a row (lib/evolution/case-plot.ts puts regressions first): a ring at its score
 * with the original skill, a dot at its score with the amended one, joined by a line in the colour
 * of its change, so a case the amendment made worse stands out at the top. Rows are numbered, and
 * the numbered tasks are listed whole under the plot: a task is a sentence, too long to sit beside
 * a row on a phone.
 */
export function CasePlotChart({ cases }: { cases: PlottedCase[] }) {
  return (
    <ChartFigure
      name="Case scores, original to amended"
      testId="case-plot"
      legend={LEGEND}
      height={cases.length * ROW + 60}
      below={
        <ol className="mt-1 list-decimal space-y-0.5 pl-6 text-xs text-slate-700 marker:tabular-nums" data-testid="case-key">
          {cases.map((c) => (
            <li key={c.observationId} className="break-words">
              {c.task}
            </li>
          ))}
        </ol>
      }
      head={
        <>
          <th className="py-1">Task</th>
          <th className="px-2 py-1 text-right">Original</th>
          <th className="px-2 py-1 text-right">Amended</th>
          <th className="py-1">Change</th>
        </>
      }
      rows={cases.map((c) => (
        <tr key={c.observationId} className="border-t border-slate-100" data-plotted={c.observationId}>
          <td className="max-w-xs py-1">{c.task}</td>
          <td className="px-2 py-1 text-right tabular-nums">{twoDecimals(c.original)}</td>
          <td className="px-2 py-1 text-right tabular-nums">{twoDecimals(c.amended)}</td>
          <td className="py-1">{c.change}</td>
        </tr>
      ))}
    >
      <ResponsiveContainer>
        <ScatterChart margin={{ ...TITLED_MARGIN, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid {...GRID} horizontal={false} />
          <XAxis type="number" dataKey="score" domain={[0, 1]} ticks={[0, 0.25, 0.5, 0.75, 1]} label={xTitle("case score")} />
          <YAxis
            type="number"
            dataKey="row"
            reversed
            domain={[-0.5, cases.length - 0.5]}
            ticks={cases.map((_, row) => row)}
            interval={0}
            width={32}
            tick={(tick: YAxisTickContentProps) => <CaseTick x={tick.x} y={tick.y} row={Number(tick.payload.value)} />}
          />
          <Tooltip content={CaseTooltip} cursor={false} />
          {cases.map((c, row) => (
            <Scatter
              key={c.observationId}
              data={[
                { row, score: c.original, end: "original", case: c },
                { row, score: c.amended, end: "amended", case: c },
              ]}
              line={{ stroke: CHANGE_SWATCHES[c.change].color, strokeWidth: 2 }}
              shape={CaseDot}
              isAnimationActive={false}
            />
          ))}
        </ScatterChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
}

/** A row's number, counted from 1 as the key under the plot counts its tasks. */
function CaseTick({ x, y, row }: { x: number | string; y: number | string; row: number }) {
  return (
    <text x={x} y={y} dy={4} textAnchor="end" fontSize={12} fill={CHART_COLORS.title} className="case-number">
      {row + 1}
    </text>
  );
}

/** The original score a ring, the amended one a dot, both in the colour of the case's change. */
function CaseDot({ cx, cy, payload }: ScatterShapeProps) {
  const point = payload as Point;
  const color = CHANGE_SWATCHES[point.case.change].color;
  return (
    <circle
      cx={cx}
      cy={cy}
      // The ring wider than the dot, so an unchanged case shows both.
      r={point.end === "original" ? 6 : 4}
      fill={point.end === "original" ? "#fff" : color}
      stroke={color}
      strokeWidth={2}
      data-end={point.end}
      data-change={point.case.change}
    />
  );
}

function CaseTooltip({ active, payload }: { active?: boolean; payload?: readonly { payload?: unknown }[] }) {
  const point = payload?.[0]?.payload as Point | undefined;
  if (!active || !point) return null;
  return (
    <div className="max-w-xs rounded border border-slate-200 bg-white p-2 text-xs shadow">
      <p className="mb-1">{point.case.task}</p>
      <p className="tabular-nums">
        {twoDecimals(point.case.original)} → {twoDecimals(point.case.amended)} ({point.case.change})
      </p>
    </div>
  );
}
