import { Card } from "./card";

/** A headline figure with an optional note (a trend, a hint). Found by `data-stat`, its note as the value's next sibling. */
export function Stat({
  label,
  value,
  note,
  tone = "plain",
}: {
  label: string;
  value: React.ReactNode;
  note?: string;
  tone?: "plain" | "warn" | "good";
}) {
  const noteColor = tone === "warn" ? "text-amber-700" : tone === "good" ? "text-emerald-700" : "text-slate-500";
  return (
    <Card>
      <div className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</div>
      <div className="mt-1 text-2xl font-semibold tabular-nums" data-stat={label}>
        {value}
      </div>
      {note && <div className={`mt-1 text-xs ${noteColor}`}>{note}</div>}
    </Card>
  );
}
