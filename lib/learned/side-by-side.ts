import { boundedDiffLines } from "./line-diff";

/** Rows of a side-by-side diff: pure, so the browser can build a preview while someone types. */
export type DiffRow =
  { kind: "same" | "changed" | "removed" | "added"; left: DiffLine | null; right: DiffLine | null } | { kind: "skip"; count: number };

export interface DiffLine {
  number: number;
  text: string;
}

function lines(value: string): string[] {
  const parts = value.split("\n");
  if (parts[parts.length - 1] === "") parts.pop();
  return parts;
}

/** Pairs removed and added lines as changes; unchanged runs longer than `context * 2` fold into a skip row. */
export function sideBySide(a: string, b: string, context = 3): DiffRow[] {
  const rows: DiffRow[] = [];
  let left = 1;
  let right = 1;
  const parts = boundedDiffLines(a, b);
  for (const [i, part] of parts.entries()) {
    // Added lines right after removed ones were paired with them below.
    if (part.added && parts[i - 1]?.removed) continue;
    const next = parts[i + 1];
    if (part.removed && next?.added) {
      const removed = lines(part.value);
      const added = lines(next.value);
      for (let j = 0; j < Math.max(removed.length, added.length); j++) {
        const removedText = removed[j];
        const addedText = added[j];
        const l = removedText === undefined ? null : { number: left++, text: removedText };
        const r = addedText === undefined ? null : { number: right++, text: addedText };
        rows.push({ kind: l && r ? "changed" : l ? "removed" : "added", left: l, right: r });
      }
    } else if (part.removed) {
      for (const text of lines(part.value)) rows.push({ kind: "removed", left: { number: left++, text }, right: null });
    } else if (part.added) {
      for (const text of lines(part.value)) rows.push({ kind: "added", left: null, right: { number: right++, text } });
    } else {
      for (const text of lines(part.value)) rows.push({ kind: "same", left: { number: left++, text }, right: { number: right++, text } });
    }
  }
  return foldUnchanged(rows, context);
}

function foldUnchanged(rows: DiffRow[], context: number): DiffRow[] {
  const folded: DiffRow[] = [];
  for (const [i, row] of rows.entries()) {
    if (row.kind !== "same") {
      folded.push(row);
      continue;
    }
    // A run of unchanged rows is folded from its first row.
    if (rows[i - 1]?.kind === "same") continue;
    let end = i;
    while (rows[end]?.kind === "same") end++;
    const keepHead = i === 0 ? 0 : context;
    const keepTail = end === rows.length ? 0 : context;
    if (end - i > keepHead + keepTail + 1) {
      folded.push(
        ...rows.slice(i, i + keepHead),
        { kind: "skip", count: end - i - keepHead - keepTail },
        ...rows.slice(end - keepTail, end),
      );
    } else {
      folded.push(...rows.slice(i, end));
    }
  }
  return folded;
}

export function hasChanges(rows: DiffRow[]): boolean {
  return rows.some((row) => row.kind !== "same" && row.kind !== "skip");
}
