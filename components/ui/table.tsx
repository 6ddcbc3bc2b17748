import type { ReactNode } from "react";
import { ScrollBox } from "./scroll-box";

/**
 * Below 640 px a table with `cards` lays each row out as a card, as the approval queue's are: the
 * header row only for screen readers, the cells wrapping side by side, each cell with a
 * `data-heading` led by it (its column's header, in small print). One markup for both widths: what a
 * row says is written once, and finding a row or a cell works the same on a phone.
 */
const CARDS = [
  "max-sm:block max-sm:[&>thead]:sr-only max-sm:[&>tbody]:flex max-sm:[&>tbody]:flex-col max-sm:[&>tbody]:gap-2",
  "max-sm:[&>tbody>tr]:flex max-sm:[&>tbody>tr]:flex-wrap max-sm:[&>tbody>tr]:items-baseline max-sm:[&>tbody>tr]:gap-x-4 max-sm:[&>tbody>tr]:gap-y-1",
  "max-sm:[&>tbody>tr]:rounded-md max-sm:[&>tbody>tr]:border max-sm:[&>tbody>tr]:border-slate-200 max-sm:[&>tbody>tr]:p-3",
  "max-sm:[&>tbody>tr>td]:p-0 max-sm:[&>tbody>tr>td]:text-left max-sm:[&_td[data-heading]]:before:mr-1 max-sm:[&_td[data-heading]]:before:text-xs max-sm:[&_td[data-heading]]:before:font-normal",
  "max-sm:[&_td[data-heading]]:before:text-slate-500 max-sm:[&_td[data-heading]]:before:content-[attr(data-heading)]",
].join(" ");

/**
 * The dashboard's table: small text under quiet upper-case headers, in a box that scrolls sideways
 * when the table is wider than its card (a phone, docs/dashboard.md#phones-and-accessibility) and says so (ScrollBox). Every cell but a
 * row's last keeps a gap on its right, so neighbouring columns never run together ("AGAINSTFROM").
 */
export function Table({
  label,
  tableLabel,
  head,
  testId,
  boxed = false,
  cards = false,
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
  /** Rows become cards on a phone (CARDS). */
  cards?: boolean;
  className?: string;
  children: ReactNode;
}) {
  const gaps = cards ? "sm:[&_:is(th,td):not(:last-child)]:pr-3" : "[&_:is(th,td):not(:last-child)]:pr-3";
  return (
    <ScrollBox label={label} className={className} cueClassName={boxed ? "px-3 pt-2" : ""}>
      <table
        className={`w-full text-sm ${gaps} ${cards ? CARDS : ""} ${cards && boxed ? "max-sm:p-3" : ""}`}
        data-testid={testId}
        aria-label={tableLabel}
      >
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
