import type { Swatch } from "./history-colors";

export interface LegendItem extends Swatch {
  /** How the series is drawn: a bar's square (the default), a dashed reference line, or a hollow or filled dot. */
  mark?: "square" | "dashed" | "ring" | "dot";
}

const MARKS = {
  square: "h-3 w-3 rounded-sm",
  dashed: "h-0 w-4 border-t-2 border-dashed",
  ring: "h-3 w-3 rounded-full border-2 bg-white",
  dot: "h-3 w-3 rounded-full",
} as const;

/** The history charts' legend: HTML above the chart, so it wraps on a phone and reads as a list. */
export function ChartLegend({ items }: { items: LegendItem[] }) {
  return (
    <ul className="mb-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700" data-testid="legend">
      {items.map(({ label, color, mark = "square" }) => (
        <li key={label} className="flex items-center gap-1.5">
          <span
            aria-hidden
            className={`inline-block shrink-0 ${MARKS[mark]}`}
            style={mark === "square" || mark === "dot" ? { background: color } : { borderColor: color }}
          />
          {label}
        </li>
      ))}
    </ul>
  );
}
