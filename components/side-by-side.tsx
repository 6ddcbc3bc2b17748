import type { DiffRow } from "@/lib/learned/side-by-side";

/** Rows shown at most: a page stays small and quick however much two versions differ. */
const MAX_DIFF_ROWS = 300;

/** Two columns, old on the left and new on the right, lines aligned. Cell styles live in globals.css: a row is short markup. */
export function SideBySide({ rows: all, left, right }: { rows: DiffRow[]; left: string; right: string }) {
  const rows = all.slice(0, MAX_DIFF_ROWS);
  const hidden = all.length - rows.length;
  return (
    <table className="diff w-full table-fixed border border-slate-200 font-mono text-xs" data-testid="side-by-side">
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
            <tr key={i} className="bg-slate-100 text-center text-slate-700">
              <td colSpan={4} className="py-0.5">
                … {row.count} unchanged line{row.count === 1 ? "" : "s"} …
              </td>
            </tr>
          ) : (
            <tr key={i} data-kind={row.kind}>
              <td>{row.left?.number}</td>
              <td>{row.left?.text}</td>
              <td>{row.right?.number}</td>
              <td>{row.right?.text}</td>
            </tr>
          ),
        )}
        {hidden > 0 && (
          <tr className="bg-amber-50 text-center text-amber-900">
            <td colSpan={4} className="py-1">
              … {hidden.toLocaleString("en-US")} more rows not shown here; the API&apos;s diff route (
              <code>GET /api/v1/skills/&lt;name&gt;/diff</code>) has every line
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}
