"use client";

import {
  Bar,
  BarChart,
  CartesianGrid,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  usePlotArea,
  useXAxisScale,
} from "recharts";
import type { ChartDay, VersionMarker } from "@/lib/pages/production";
import { CHART_COLORS, GRID, TITLED_MARGIN, xTitle, yTitle } from "@/components/ui/chart-theme";
import { placeVersionLabels } from "./marker-labels";

/** The stacked series, bottom first: who chose the skill. */
const SERIES = [
  { key: "proactive", name: "chosen by the model", color: CHART_COLORS.main },
  { key: "typed", name: "typed /name", color: CHART_COLORS.caution },
  { key: "nested", name: "called by a skill", color: CHART_COLORS.muted },
] as const;

/**
 * Activations per day by who chose the skill (lib/pages/production.ts shapes the days), stacked,
 * with a line where each version went live: a description that makes the model choose the skill
 * shows as more proactive bars after its line. The axis starts at the data's first day and names
 * it; labels of lines close together share one label (./marker-labels.ts). The legend is the
 * page's own, above the chart, so it wraps on a phone instead of running into the version labels.
 */
export function ProductionChart({ days, markers }: { days: ChartDay[]; markers: VersionMarker[] }) {
  return (
    <div data-testid="production-chart">
      <ul className="mb-1 flex flex-wrap justify-center gap-x-4 gap-y-1 text-xs text-slate-600">
        {SERIES.map((series) => (
          <li key={series.key} className="flex items-center gap-1.5">
            <span aria-hidden className="inline-block h-2.5 w-2.5 rounded-sm" style={{ background: series.color }} />
            {series.name}
          </li>
        ))}
        {markers.length > 0 && (
          <li className="flex items-center gap-1.5">
            <span aria-hidden className="inline-block h-3 w-0 border-l-2 border-dashed" style={{ borderColor: CHART_COLORS.marker }} />
            version went live
          </li>
        )}
      </ul>
      <div className="h-64 w-full">
        <ResponsiveContainer>
          <BarChart data={days} margin={{ ...TITLED_MARGIN, top: 20 }} barCategoryGap={1} maxBarSize={40}>
            <CartesianGrid {...GRID} vertical={false} />
            <XAxis
              dataKey="day"
              tickFormatter={(day: string) => day.slice(5)}
              interval="preserveStartEnd"
              minTickGap={24}
              label={xTitle("day (UTC)")}
            />
            <YAxis allowDecimals={false} width={40} label={yTitle("activations")} />
            <Tooltip labelFormatter={(day) => String(day)} />
            {SERIES.map((series) => (
              <Bar
                key={series.key}
                dataKey={series.key}
                name={series.name}
                stackId="trigger"
                fill={series.color}
                isAnimationActive={false}
              />
            ))}
            {markers.map((marker) => (
              <ReferenceLine key={marker.day} x={marker.day} stroke={CHART_COLORS.marker} strokeDasharray="4 3" />
            ))}
            <VersionLabels markers={markers} />
          </BarChart>
        </ResponsiveContainer>
      </div>
    </div>
  );
}

/** The versions above their lines, placed where they do not run into each other, at the width the chart is drawn. */
function VersionLabels({ markers }: { markers: VersionMarker[] }) {
  const scale = useXAxisScale();
  const plot = usePlotArea();
  if (!scale || !plot) return null;
  const lines = markers.flatMap((marker) => {
    const x = scale(marker.day, { position: "middle" });
    return x === undefined ? [] : [{ x, versions: marker.versions }];
  });
  return (
    <g>
      {placeVersionLabels(lines, { left: plot.x, right: plot.x + plot.width }).map((label) => (
        <text
          key={label.text}
          x={label.x}
          y={plot.y - 6}
          textAnchor="middle"
          fontSize={12}
          fill={CHART_COLORS.marker}
          className="version-marker"
        >
          {label.text}
        </text>
      ))}
    </g>
  );
}
