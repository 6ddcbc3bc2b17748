import type { ReactNode } from "react";

/**
 * The dashboard's table: small text under quiet upper-case headers, in a box that scrolls sideways
 * when the table is wider than its card (a phone, §10). The box is a named region that takes focus,
 * so it scrolls from the keyboard too (axe: scrollable-region-focusable); while there is more to the
 * right, a shadow on its right edge says so (.table-scroll in globals.css).
 */
export function Table({
  label,
  tableLabel,
  head,
  testId,
  boxed = false,
  className = "",
  children,
}: {
  /** The scrolling region's name, for screen readers: distinct from the section's, or the page has two landmarks of one name. */
  label: string;
  /** The table's own name, for a table screen readers already knew by one. */
  tableLabel?: string;
  /** The header cells; a table without them has no header row. */
  head?: ReactNode;
  testId?: string;
  /** Runs to the edges of its card: the header sits on a band. */
  boxed?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div role="region" aria-label={label} tabIndex={0} className={`table-scroll relative overflow-x-auto ${className}`}>
      <table className="w-full text-sm" data-testid={testId} aria-label={tableLabel}>
        {head && (
          <thead className={`text-left text-xs uppercase text-slate-500 ${boxed ? "bg-slate-50 tracking-wide" : ""}`}>
            <tr>{head}</tr>
          </thead>
        )}
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
