"use client";

import { useState } from "react";
import { Field, KeptForm } from "@/components/ui/kept-form";
import type { FormAction } from "@/components/ui/use-kept-form";

/** Builds a prompt set from the prompts the team's agents reported (docs/telemetry.md#prompt-sets-from-production); a refusal keeps what was typed. */
export function FromTelemetryForm({ action }: { action: FormAction }) {
  const [name, setName] = useState("from-production");
  const [days, setDays] = useState("30");
  return (
    <KeptForm
      label="Build a prompt set from production"
      action={action}
      submit="Build prompt set"
      row={
        <>
          <Field
            label="Name"
            width="w-48"
            name="name"
            required
            maxLength={80}
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
          <Field
            label="Prompts of the last … days"
            width="w-24"
            name="days"
            type="number"
            min={1}
            max={3650}
            value={days}
            onChange={(event) => setDays(event.target.value)}
          />
        </>
      }
    />
  );
}
