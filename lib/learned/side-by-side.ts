import { boundedDiffLines } from "./line-diff";

/** Rows of a side-by-side diff: pure, so the browser can build a preview while someone types. */
export type DiffRow =
  | { kind: "same" | "changed" | "removed" | "added"; left: DiffLine | null; right: DiffLine | null }
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

/** Pairs removed and added lines as changes; unchanged runs longer than `context * 2` fold into a skip row. */
export function sideBySide(a: string, b: string, context = 3): DiffRow[] {
  const rows: DiffRow[] = [];
  let left = 1;
  let right = 1;
  const parts = boundedDiffLines(a, b);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.removed && parts[i + 1]?.added) {
      const removed = lines(part.value);
      const added = lines(parts[++i]!.value);
      for (let j = 0; j < Math.max(removed.length, added.length); j++) {
        const l = j < removed.length ? { number: left++, text: removed[j]! } : null;
        const r = j < added.length ? { number: right++, text: added[j]! } : null;
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
  let i = 0;
  while (i < rows.length) {
    if (rows[i]!.kind !== "same") {
      folded.push(rows[i++]!);
      continue;
    }
    let end = i;
    while (end < rows.length && rows[end]!.kind === "same") end++;
    const keepHead = i === 0 ? 0 : context;
    const keepTail = end === rows.length ? 0 : context;
    if (end - i > keepHead + keepTail + 1) {
      folded.push(...rows.slice(i, i + keepHead), { kind: "skip", count: end - i - keepHead - keepTail }, ...rows.slice(end - keepTail, end));
    } else {
      folded.push(...rows.slice(i, end));
    }
    i = end;
  }
  return folded;
}

export function hasChanges(rows: DiffRow[]): boolean {
  return rows.some((row) => row.kind !== "same" && row.kind !== "skip");
}
