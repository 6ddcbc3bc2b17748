import { diffLines, FILE_HEADERS_ONLY, formatPatch, structuredPatch, type Change, type StructuredPatch } from "diff";

/**
 * Line diffs with a bounded cost. Myers' algorithm costs (lines × edits): two 250 KiB versions
 * that share nothing took seconds. Past `MAX_EDIT_LENGTH` changed lines the diff gives up and the
 * texts are compared as a whole replacement, which is still exact, only not minimal.
 */
export const MAX_EDIT_LENGTH = 1000;

export function boundedDiffLines(a: string, b: string): Change[] {
  const changes = diffLines(a, b, { maxEditLength: MAX_EDIT_LENGTH });
  if (changes) return changes;
  const whole: Change[] = [];
  if (a !== "") whole.push({ value: a, added: false, removed: true, count: lineCount(a) });
  if (b !== "") whole.push({ value: b, added: true, removed: false, count: lineCount(b) });
  return whole;
}

/** A unified diff with only file headers (`--- from` / `+++ to`). */
export function boundedUnifiedPatch(fromLabel: string, toLabel: string, a: string, b: string): string {
  const patch =
    structuredPatch(fromLabel, toLabel, a, b, undefined, undefined, { maxEditLength: MAX_EDIT_LENGTH }) ??
    replacement(fromLabel, toLabel, a, b);
  return formatPatch(patch, FILE_HEADERS_ONLY);
}

/** One hunk that removes every line of `a` and adds every line of `b`. */
function replacement(fromLabel: string, toLabel: string, a: string, b: string): StructuredPatch {
  const oldLines = patchLines(a, "-");
  const newLines = patchLines(b, "+");
  const oldCount = lineCount(a);
  const newCount = lineCount(b);
  return {
    oldFileName: fromLabel,
    newFileName: toLabel,
    oldHeader: undefined,
    newHeader: undefined,
    hunks: [
      {
        oldStart: oldCount === 0 ? 0 : 1,
        oldLines: oldCount,
        newStart: newCount === 0 ? 0 : 1,
        newLines: newCount,
        lines: [...oldLines, ...newLines],
      },
    ],
  };
}

function splitLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function lineCount(text: string): number {
  return splitLines(text).length;
}

function patchLines(text: string, mark: "-" | "+"): string[] {
  const lines = splitLines(text).map((line) => mark + line);
  if (text !== "" && !text.endsWith("\n")) lines.push("\\ No newline at end of file");
  return lines;
}
