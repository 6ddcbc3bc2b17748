"use client";

import { useRouter } from "next/navigation";
import { useTransition } from "react";
import type { ActionResult } from "@/lib/actions/result";

export function CancelRunButton({ cancel }: { cancel: () => Promise<ActionResult> }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  return (
    <button
      disabled={pending}
      onClick={() => {
        if (!window.confirm("Cancel this run? What it measured so far is kept.")) return;
        startTransition(async () => {
          await cancel();
          router.refresh();
        });
      }}
      className="rounded-md border border-red-300 px-3 py-1 text-sm text-red-700 hover:bg-red-50 disabled:opacity-50"
    >
      Cancel run
    </button>
  );
}
