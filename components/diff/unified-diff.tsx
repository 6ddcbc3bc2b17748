import type { DiffRow } from "@/lib/learned/side-by-side";
import { unifiedLines, type UnifiedLine } from "@/lib/learned/unified-lines";
import { MarkedText } from "./marked-text";
import { MoreRows, SkipRow } from "./rows";

const SIGN = { same: " ", removed: "-", added: "+" };

/** One column, as `git diff` prints it: old and new line numbers, the sign, the line with its changed words marked. Styles in globals.css. */
export function UnifiedDiff({ rows, hidden, left, right }: { rows: DiffRow[]; hidden: number; left: string; right: string }) {
  return (
    <table className="diff-unified w-full table-fixed border border-slate-200 font-mono text-xs" data-testid="unified-diff">
      <colgroup>
        <col className="w-9" />
        <col className="w-9" />
        <col className="w-4" />
        <col />
      </colgroup>
      <thead className="bg-slate-100 text-left text-slate-600">
        <tr>
          <th>
            <span className="sr-only">line in {left}</span>
          </th>
          <th>
            <span className="sr-only">line in {right}</span>
          </th>
          <th className="px-2 py-1" colSpan={2}>
            {left} → {right}
          </th>
        </tr>
      </thead>
      <tbody>
        {unifiedLines(rows).map((line, i) =>
          line.kind === "skip" ? <SkipRow key={i} count={line.count} columns={4} /> : <Line key={i} line={line} />,
        )}
        <MoreRows hidden={hidden} columns={4} />
      </tbody>
    </table>
  );
}

function Line({ line }: { line: Exclude<UnifiedLine, { kind: "skip" }> }) {
  return (
    <tr data-kind={line.kind}>
      <td>{line.kind === "added" ? null : line.left}</td>
      <td>{line.kind === "removed" ? null : line.right}</td>
      <td aria-hidden="true">{SIGN[line.kind]}</td>
      <td>{line.kind === "same" ? line.text : <MarkedText side={line.kind} text={line.text} words={line.words} />}</td>
    </tr>
  );
}
