import { diff3Merge } from "node-diff3";

/**
 * Three-way merges of an amendment's change onto a skill that moved on (docs/evaluation-and-activation.md#out-of-date-amendments): what the amendment
 * changed from the version it was written against, applied to the current version. Lines are
 * merged as diff3 does (node-diff3): changes to lines the other side left alone apply; changes to
 * the same or adjacent lines conflict, unless both made the same change.
 */

/** Lines of the base version, 1-based; `first > last` is the place between two lines where both sides added text. */
export interface LineSpan {
  first: number;
  last: number;
}

export type Merged<T> = { ok: true; value: T } | { ok: false; conflicts: LineSpan[] };

/** `amended`'s change from `base`, applied to `current`: the merged text, or the lines of `base` both changed. */
export function mergeText(base: string, amended: string, current: string): Merged<string> {
  const regions = diff3Merge(amended.split("\n"), base.split("\n"), current.split("\n"), { excludeFalseConflicts: true });
  const lines: string[] = [];
  const conflicts: LineSpan[] = [];
  for (const region of regions) {
    if (region.ok) lines.push(...region.ok);
    else if (region.conflict) {
      const { oIndex, o } = region.conflict;
      conflicts.push({ first: oIndex + 1, last: oIndex + o.length });
    }
  }
  return conflicts.length === 0 ? { ok: true, value: lines.join("\n") } : { ok: false, conflicts };
}

/**
 * A one-line field (the description): the amendment's value where only it changed the field, the
 * current one where only the skill did (or both made the same change), a conflict where both
 * changed it differently (a one-line field has no lines to name). `null` when the merged value is the
 * current one: nothing to change.
 */
export function mergeField(base: string, amended: string | null, current: string): Merged<string | null> {
  if (amended === null || amended === base || amended === current) return { ok: true, value: null };
  if (current === base) return { ok: true, value: amended };
  return { ok: false, conflicts: [] };
}

/** "line 3", "lines 3–5", "after line 7": where in the base version both sides changed the text. */
export function describeSpans(spans: LineSpan[]): string {
  const words = spans.map((span) => {
    if (span.first > span.last) return span.last === 0 ? "at its start" : `after line ${span.last}`;
    return span.first === span.last ? `line ${span.first}` : `lines ${span.first}–${span.last}`;
  });
  const last = words.pop();
  return words.length === 0 ? `${last}` : `${words.join(", ")} and ${last}`;
}
