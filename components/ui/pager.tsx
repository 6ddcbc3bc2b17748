import Link from "next/link";
import type { Paged } from "@/lib/paged";

/**
 * A long list's count and its way through: "10,009 never loaded · showing 51–100", then the pages
 * before and after it. Each page is an address of its own (`href`), so a page can be linked; none
 * prefetches, since every one is a render of the whole page.
 */
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
  return (
    <nav className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm" aria-label={label}>
      <span className="text-slate-600" data-testid="list-count">
        {paged.total.toLocaleString("en-US")} {noun}
        {paged.pages > 1 && ` · showing ${paged.first.toLocaleString("en-US")}–${last.toLocaleString("en-US")}`}
      </span>
      {paged.pages > 1 && (
        <>
          {paged.page > 1 && (
            <Link prefetch={false} href={href(paged.page - 1)} rel="prev" className="text-indigo-700 hover:underline">
              ← Previous
            </Link>
          )}
          <span className="text-slate-600">
            page {paged.page} of {paged.pages.toLocaleString("en-US")}
          </span>
          {paged.page < paged.pages && (
            <Link prefetch={false} href={href(paged.page + 1)} rel="next" className="text-indigo-700 hover:underline">
              Next →
            </Link>
          )}
        </>
      )}
    </nav>
  );
}
