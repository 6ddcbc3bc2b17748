import type { WeekRate } from "@/lib/ledger/week-rate";
import { percent } from "@/lib/format";
import { Table } from "@/components/ui/table";

/** The weekly pass rates in figures beside the chart: each week with its verdicts, so n is read without hovering. */
export function WeekRatesTable({ weeks }: { weeks: WeekRate[] }) {
  return (
    <Table
      label="Pass rate by week, in figures"
      className="mt-3"
      testId="pass-rate-week-table"
      head={
        <>
          <th className="py-1 pr-3">Week of</th>
          <th className="py-1 pr-3 text-right">Verdicts (n)</th>
          <th className="py-1 text-right">Pass rate</th>
        </>
      }
    >
      {[...weeks].reverse().map((week) => (
        <tr key={week.week} className="border-t border-slate-100" data-week={week.week} data-few={week.few}>
          <td className="py-1 pr-3 tabular-nums">{week.week}</td>
          <td className="py-1 pr-3 text-right tabular-nums">{week.verdicts}</td>
          <td className={`py-1 text-right tabular-nums ${week.few ? "text-slate-500" : ""}`}>{percent(week.rate)}</td>
        </tr>
      ))}
    </Table>
  );
}
