"use client";

import { useActionState, useState } from "react";
import type { ActionResult } from "@/lib/actions/result";
import { ActionMessage } from "@/components/action-message";

/**
 * Builds a prompt set from the prompts the team's agents reported (§9.1). The fields are held
 * here, not as defaults: React resets a form after its action, and a refusal must keep what was typed.
 */
export function FromTelemetryForm({ action }: { action: (previous: ActionResult | null, form: FormData) => Promise<ActionResult> }) {
  const [state, formAction, pending] = useActionState(action, null);
  const [name, setName] = useState("from-production");
  const [days, setDays] = useState("30");
  return (
    <form action={formAction} className="space-y-3" aria-label="Build a prompt set from production">
      <div className="flex flex-wrap items-end gap-3">
        <label className="text-sm font-medium">
          Name
          <input
            name="name"
            required
            maxLength={80}
            value={name}
            onChange={(event) => setName(event.target.value)}
            className="mt-1 block w-48 rounded-md border border-slate-300 px-2 py-1"
          />
        </label>
        <label className="text-sm font-medium">
          Prompts of the last … days
          <input
            name="days"
            type="number"
            min={1}
            max={3650}
            value={days}
            onChange={(event) => setDays(event.target.value)}
            className="mt-1 block w-24 rounded-md border border-slate-300 px-2 py-1"
          />
        </label>
        <button
          disabled={pending}
          className="rounded-md bg-indigo-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-600 disabled:opacity-50"
        >
          Build prompt set
        </button>
      </div>
      <ActionMessage state={state} />
    </form>
  );
}
