import type { DiffRow } from "./side-by-side";
import { markWords, type Word } from "./word-diff";

/** One line of a unified diff: unchanged, removed or added (its changed words marked when it pairs with a line of the other side), or a fold. */
export type UnifiedLine =
  | { kind: "same"; left: number; right: number; text: string }
  | { kind: "removed"; left: number; text: string; words: Word[] | null }
  | { kind: "added"; right: number; text: string; words: Word[] | null }
  | { kind: "skip"; count: number };

/**
 * The rows of a side-by-side diff in one column, as `git diff` prints them: each changed block's old
 * lines, then its new ones. A changed row's two lines keep the words marked that changed between them;
 * lines with no counterpart have no marks (`words: null`), all of them removed or added.
 */
export function unifiedLines(rows: DiffRow[]): UnifiedLine[] {
  const lines: UnifiedLine[] = [];
  let removed: UnifiedLine[] = [];
  let added: UnifiedLine[] = [];
  for (const row of rows) {
    if (row.kind === "skip" || row.kind === "same") {
      lines.push(...removed, ...added);
      removed = [];
      added = [];
      lines.push(row.kind === "skip" ? row : { kind: "same", left: row.left.number, right: row.right.number, text: row.left.text });
      continue;
    }
    const words = row.kind === "changed" ? markWords(row.left.text, row.right.text) : null;
    if (row.left) removed.push({ kind: "removed", left: row.left.number, text: row.left.text, words: words?.before ?? null });
    if (row.right) added.push({ kind: "added", right: row.right.number, text: row.right.text, words: words?.after ?? null });
  }
  return [...lines, ...removed, ...added];
}
