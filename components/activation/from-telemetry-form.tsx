"use client";

import { useState } from "react";
import { ActionMessage } from "@/components/action-message";
import { SubmitButton } from "@/components/ui/submit-button";
import { useKeptForm, type FormAction } from "@/components/ui/use-kept-form";

/** Builds a prompt set from the prompts the team's agents reported (docs/telemetry.md#prompt-sets-from-production); a refusal keeps what was typed. */
export function FromTelemetryForm({ action }: { action: FormAction }) {
  const [name, setName] = useState("from-production");
  const [days, setDays] = useState("30");
  const { state, pending, onSubmit } = useKeptForm(action);
  return (
    <form onSubmit={onSubmit} className="space-y-3" aria-label="Build a prompt set from production">
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
        <SubmitButton pending={pending}>Build prompt set</SubmitButton>
      </div>
      <ActionMessage state={state} />
    </form>
  );
}
