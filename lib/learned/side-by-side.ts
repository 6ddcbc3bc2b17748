import { boundedDiffLines } from "./line-diff";
import { pairLines } from "./word-diff";

/** Rows of a side-by-side diff: pure, so the browser can build a preview while someone types. */
export type DiffRow =
  | { kind: "same" | "changed"; left: DiffLine; right: DiffLine }
  | { kind: "removed"; left: DiffLine; right: null }
  | { kind: "added"; left: null; right: DiffLine }
  | { kind: "skip"; count: number };

export interface DiffLine {
  number: number;
  text: string;
}

function lines(value: string): string[] {
  const parts = value.split("\n");
  if (parts[parts.length - 1] === "") parts.pop();
  return parts;
}

/**
 * Rows of two texts' diff: a removed line and the added line it became share a "changed" row (pairs
 * found by likeness, see word-diff.ts; a view marks the changed words of the rows it shows); lines
 * left over are whole removals and additions. Unchanged runs longer than `context * 2` fold into a skip row.
 */
export function sideBySide(a: string, b: string, context = 3): DiffRow[] {
  const rows: DiffRow[] = [];
  let left = 1;
  let right = 1;
  const parts = boundedDiffLines(a, b);
  for (const [i, part] of parts.entries()) {
    // Added lines right after removed ones were paired with them below.
    if (part.added && parts[i - 1]?.removed) continue;
    if (!part.added && !part.removed) {
      for (const text of lines(part.value)) rows.push({ kind: "same", left: { number: left++, text }, right: { number: right++, text } });
      continue;
    }
    const next = parts[i + 1];
    const removed = part.removed ? lines(part.value) : [];
    const added = part.added ? lines(part.value) : next?.added ? lines(next.value) : [];
    for (const { before, after } of pairLines(removed, added)) {
      if (before !== null && after !== null)
        rows.push({ kind: "changed", left: { number: left++, text: before }, right: { number: right++, text: after } });
      else if (before !== null) rows.push({ kind: "removed", left: { number: left++, text: before }, right: null });
      else if (after !== null) rows.push({ kind: "added", left: null, right: { number: right++, text: after } });
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
