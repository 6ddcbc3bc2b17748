"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/result";
import { useNotice } from "@/components/action-notice";

/** A button that asks before it acts, then says what happened: a refusal beside it, a success in the page's notice (the button may be gone after it). */
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
  const [refusal, setRefusal] = useState<string | null>(null);
  const notify = useNotice();
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
            setRefusal(outcome.ok ? null : outcome.message);
            if (!outcome.ok) return;
            notify(outcome.message);
            router.refresh();
          });
        }}
      >
        {label}
      </button>
      {refusal && (
        <span role="alert" className="text-xs text-red-700">
          {refusal}
        </span>
      )}
    </span>
  );
}
