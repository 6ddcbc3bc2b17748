import Link from "next/link";
import { Card } from "./card";

/**
 * A headline figure with an optional note (a trend, a hint). Found by `data-stat`, its note as the
 * value's next sibling. With `href`, its label links to what it counts (the table filtered to them).
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
  const labelClass = "text-xs font-medium uppercase tracking-wide";
  return (
    <Card>
      {href ? (
        <Link
          prefetch={false}
          href={href}
          className={`${labelClass} block w-fit text-indigo-700 underline-offset-2 hover:underline`}
          data-stat-link={label}
        >
          {label}
        </Link>
      ) : (
        <div className={`${labelClass} text-slate-500`}>{label}</div>
      )}
      <div className="mt-1 text-2xl font-semibold tabular-nums" data-stat={label}>
        {value}
      </div>
      {note && <div className={`mt-1 text-xs ${noteColor}`}>{note}</div>}
    </Card>
  );
}
