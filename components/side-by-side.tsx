import { markWords } from "@/lib/learned/word-diff";
import type { DiffRow } from "@/lib/learned/side-by-side";
import { MarkedText } from "@/components/diff/marked-text";
import { MoreRows, SkipRow } from "@/components/diff/rows";

/**
 * Two columns, old on the left and new on the right, lines aligned; a changed row marks its changed
 * words. Too narrow for both columns (a phone), the table scrolls sideways in its own box, with a
 * line that says so and a shadow on the edge while more is to the right (.table-scroll in globals.css).
 * Cell styles live in globals.css: a row is short markup.
 */
export function SideBySide({ rows, hidden, left, right }: { rows: DiffRow[]; hidden: number; left: string; right: string }) {
  return (
    <>
      <p className="mb-1 text-xs text-slate-600 md:hidden">Scroll the table sideways to see {right} on the right →</p>
      <div role="region" aria-label={`${left} and ${right} side by side`} tabIndex={0} className="table-scroll overflow-x-auto">
        <table className="diff w-full min-w-[40rem] table-fixed border border-slate-200 font-mono text-xs" data-testid="side-by-side">
          <thead className="bg-slate-100 text-left text-slate-600">
            <tr>
              <th className="w-10" />
              <th className="px-2 py-1">{left}</th>
              <th className="w-10" />
              <th className="px-2 py-1">{right}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, i) => (row.kind === "skip" ? <SkipRow key={i} count={row.count} columns={4} /> : <Row key={i} row={row} />))}
            <MoreRows hidden={hidden} columns={4} />
          </tbody>
        </table>
      </div>
    </>
  );
}

function Row({ row }: { row: Exclude<DiffRow, { kind: "skip" }> }) {
  const words = row.kind === "changed" ? markWords(row.left.text, row.right.text) : null;
  return (
    <tr data-kind={row.kind}>
      <td>{row.left?.number}</td>
      <td>
        {row.kind === "same" ? row.left.text : row.left && <MarkedText side="removed" text={row.left.text} words={words?.before ?? null} />}
      </td>
      <td>{row.right?.number}</td>
      <td>
        {row.kind === "same" ? row.right.text : row.right && <MarkedText side="added" text={row.right.text} words={words?.after ?? null} />}
      </td>
    </tr>
  );
}
