import type { ReactNode } from "react";

/** The green panel of a secret shown once, with what to know before using it; gone once what it shows is revoked (`live` false). */
export function ShownOnce({
  title,
  testId,
  live,
  note,
  children,
}: {
  title: string;
  testId: string;
  live: boolean;
  note?: ReactNode;
  children: string;
}) {
  if (!live) return null;
  return (
    <div className="rounded-md border border-emerald-300 bg-emerald-50 p-3">
      <div className="text-xs font-medium text-emerald-900">{title}</div>
      <code data-testid={testId} className="block font-mono text-sm break-all select-all">
        {children}
      </code>
      {note && <p className="mt-2 text-xs text-emerald-950">{note}</p>}
    </div>
  );
}
