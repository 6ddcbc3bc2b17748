import type { ReactNode } from "react";
import { ScrollBox } from "./scroll-box";

/**
 * The dashboard's table: small text under quiet upper-case headers, in a box that scrolls sideways
 * when the table is wider than its card (a phone, §10) and says so (ScrollBox). Every cell but a
 * row's last keeps a gap on its right, so neighbouring columns never run together ("AGAINSTFROM").
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
    <ScrollBox label={label} className={className} cueClassName={boxed ? "px-3 pt-2" : ""}>
      <table className="w-full text-sm [&_:is(th,td):not(:last-child)]:pr-3" data-testid={testId} aria-label={tableLabel}>
        {head && (
          <thead className={`text-left text-xs uppercase text-slate-500 ${boxed ? "bg-slate-50 tracking-wide" : ""}`}>
            <tr>{head}</tr>
          </thead>
        )}
        <tbody>{children}</tbody>
      </table>
    </ScrollBox>
  );
}
