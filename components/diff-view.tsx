import type { DiffRow } from "@/lib/learned/side-by-side";
import { DiffViews } from "@/components/diff/views";
import type { DiffViewChoice } from "@/components/diff/view-choice";

/** Rows shown at most: a page stays small and quick however much two versions differ. */
const MAX_DIFF_ROWS = 300;

/**
 * A diff as the page's `?view=` asks (split, unified, or each screen's own), its first
 * MAX_DIFF_ROWS rows only: cut here, on the server, so the page's payload never carries the rest.
 */
export function DiffView({ rows, left, right, choice }: { rows: DiffRow[]; left: string; right: string; choice: DiffViewChoice }) {
  const shown = rows.slice(0, MAX_DIFF_ROWS);
  return <DiffViews rows={shown} hidden={rows.length - shown.length} left={left} right={right} choice={choice} />;
}
