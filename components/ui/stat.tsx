import Link from "next/link";
import { Card, CARD } from "./card";

/**
 * A headline figure with an optional note (a trend, a hint). Found by `data-stat`, its note as the
 * value's next sibling. With `href` the whole card is a link to what it counts (the table filtered
 * to them, the page that explains it), found by `data-stat-link`; its label is a link's colour.
 */
export function Stat({
  label,
  value,
  note,
  tone = "plain",
  href,
}: {
  label: string;
  value: React.ReactNode;
  note?: string;
  tone?: "plain" | "warn" | "good";
  href?: string;
}) {
  const noteColor = tone === "warn" ? "text-amber-700" : tone === "good" ? "text-emerald-700" : "text-slate-500";
  const figure = (
    <>
      <div className={`text-xs font-medium tracking-wide uppercase ${href ? "text-indigo-700 group-hover:underline" : "text-slate-500"}`}>
        {label}
      </div>
      <div className="mt-1 text-2xl font-semibold tabular-nums" data-stat={label}>
        {value}
      </div>
      {note && <div className={`mt-1 text-xs ${noteColor}`}>{note}</div>}
    </>
  );
  return href ? (
    <Link
      prefetch={false}
      href={href}
      className={`${CARD} group block p-4 underline-offset-2 hover:border-indigo-300 hover:bg-indigo-50/40`}
      data-stat-link={label}
    >
      {figure}
    </Link>
  ) : (
    <Card>{figure}</Card>
  );
}
