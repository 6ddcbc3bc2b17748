import type { ReactNode } from "react";
import { Table } from "@/components/ui/table";
import { ChartLegend, type LegendItem } from "./chart-legend";

/**
 * A history chart as a named figure: its legend, the drawing, and the same figures as a table. The
 * drawing is hidden from screen readers (its charts have no keyboard layer), who read the table.
 */
export function ChartFigure({
  name,
  testId,
  legend,
  height,
  below,
  head,
  rows,
  children,
}: {
  /** The figure's accessible name; the table is "<name> as a table". */
  name: string;
  testId: string;
  legend: LegendItem[];
  height: number;
  /** What the drawing needs said under it: its key, what it leaves out. */
  below?: ReactNode;
  head: ReactNode;
  rows: ReactNode;
  children: ReactNode;
}) {
  return (
    <figure aria-label={name} data-testid={testId}>
      <ChartLegend items={legend} />
      <div aria-hidden className="w-full" style={{ height }} data-chart>
        {children}
      </div>
      {below}
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer text-indigo-700">{name} as a table</summary>
        <Table label={`${name} as a table`} head={head} className="mt-2">
          {rows}
        </Table>
      </details>
    </figure>
  );
}
