"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/result";

/** A button that asks before it acts, then says what happened. */
export function ActionButton({
  label,
  confirm,
  action,
  tone = "plain",
}: {
  label: string;
  confirm: string;
  action: () => Promise<ActionResult>;
  tone?: "plain" | "danger" | "primary";
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [result, setResult] = useState<ActionResult | null>(null);
  const style =
    tone === "danger"
      ? "border-red-300 text-red-700 hover:bg-red-50"
      : tone === "primary"
        ? "border-indigo-700 bg-indigo-700 text-white hover:bg-indigo-600"
        : "border-slate-300 text-slate-800 hover:bg-slate-100";
  return (
    <span className="inline-flex flex-col gap-1">
      <button
        disabled={pending}
        className={`rounded-md border px-3 py-1 text-sm disabled:opacity-50 ${style}`}
        onClick={() => {
          if (!window.confirm(confirm)) return;
          startTransition(async () => {
            const outcome = await action();
            setResult(outcome);
            if (outcome.ok) router.refresh();
          });
        }}
      >
        {label}
      </button>
      {result && (
        <span role="status" className={`text-xs ${result.ok ? "text-emerald-700" : "text-red-700"}`}>
          {result.message}
        </span>
      )}
    </span>
  );
}
