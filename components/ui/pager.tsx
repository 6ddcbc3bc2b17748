import Link from "next/link";
import type { ReactNode } from "react";
import type { Paged } from "@/lib/paged";

/**
 * The way through a long list: "← Previous", where the page sits, "Next →". Each page is an address
 * of its own (`href`), so a page can be linked; none prefetches, since every one is a render of the
 * whole page. At either end the step stays in place, as plain text, so the links do not move.
 */
export function PageLinks({
  page,
  pages,
  href,
  label,
  children,
}: {
  page: number;
  pages: number;
  href: (page: number) => string;
  label: string;
  /** Where the page sits, between the two steps. */
  children: ReactNode;
}) {
  const step = (to: number, rel: "prev" | "next", text: string) =>
    to >= 1 && to <= pages ? (
      <Link prefetch={false} href={href(to)} rel={rel} className="text-indigo-700 hover:underline">
        {text}
      </Link>
    ) : (
      <span className="text-slate-500">{text}</span>
    );
  return (
    <nav className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm" aria-label={label}>
      {step(page - 1, "prev", "← Previous")}
      {children}
      {step(page + 1, "next", "Next →")}
    </nav>
  );
}

/** A long list's count, "10,009 never loaded · showing 51–100", and its pages when it has more than one. */
export function Pager({
  paged,
  noun,
  href,
  label,
}: {
  paged: Paged<unknown>;
  noun: string;
  href: (page: number) => string;
  label: string;
}) {
  const last = paged.first + paged.rows.length - 1;
  const count = (
    <span className="text-slate-600" data-testid="list-count">
      {paged.total.toLocaleString("en-US")} {noun}
      {paged.pages > 1 && ` · showing ${paged.first.toLocaleString("en-US")}–${last.toLocaleString("en-US")}`}
    </span>
  );
  if (paged.pages === 1) return <p className="mt-3 text-sm">{count}</p>;
  return (
    <PageLinks page={paged.page} pages={paged.pages} href={href} label={label}>
      {count}
      <span className="text-slate-600">
        page {paged.page} of {paged.pages.toLocaleString("en-US")}
      </span>
    </PageLinks>
  );
}
