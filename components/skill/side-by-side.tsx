import type { DiffRow } from "@/lib/learned/side-by-side";

const TONES = {
  same: ["", ""],
  changed: ["bg-rose-50", "bg-emerald-50"],
  removed: ["bg-rose-50", "bg-slate-50"],
  added: ["bg-slate-50", "bg-emerald-50"],
} as const;

/** Two columns, old on the left and new on the right, lines aligned. */
export function SideBySide({ rows, left, right }: { rows: DiffRow[]; left: string; right: string }) {
  return (
    <table className="w-full table-fixed border border-slate-200 font-mono text-xs" data-testid="side-by-side">
      <thead className="bg-slate-100 text-left text-slate-600">
        <tr>
          <th className="w-10" />
          <th className="px-2 py-1">{left}</th>
          <th className="w-10" />
          <th className="px-2 py-1">{right}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row, i) =>
          row.kind === "skip" ? (
            <tr key={i} className="bg-slate-100 text-center text-slate-500">
              <td colSpan={4} className="py-0.5">
                … {row.count} unchanged line{row.count === 1 ? "" : "s"} …
              </td>
            </tr>
          ) : (
            <tr key={i} data-kind={row.kind}>
              <td className="select-none px-1 text-right text-slate-400">{row.left?.number}</td>
              <td className={`whitespace-pre-wrap break-all px-2 ${TONES[row.kind][0]}`}>{row.left?.text}</td>
              <td className="select-none px-1 text-right text-slate-400">{row.right?.number}</td>
              <td className={`whitespace-pre-wrap break-all px-2 ${TONES[row.kind][1]}`}>{row.right?.text}</td>
            </tr>
          ),
        )}
      </tbody>
    </table>
  );
}
