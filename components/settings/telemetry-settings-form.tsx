"use client";

import { useState } from "react";
import { Field, KeptForm } from "@/components/ui/kept-form";
import type { FormAction } from "@/components/ui/use-kept-form";

/** What the team keeps of its agents' telemetry (docs/telemetry.md#storage-and-retention): prompt texts or not, and how long raw events stay. */
export function TelemetrySettingsForm({
  action,
  storePrompts,
  telemetryDays,
}: {
  action: FormAction;
  storePrompts: boolean;
  telemetryDays: number;
}) {
  const [store, setStore] = useState(storePrompts);
  const [days, setDays] = useState(String(telemetryDays));
  return (
    <KeptForm
      label="Telemetry settings"
      action={action}
      submit="Save"
      row={
        <Field
          label="Keep raw events for (days)"
          width="w-28"
          name="telemetryDays"
          type="number"
          min={1}
          max={3650}
          value={days}
          onChange={(event) => setDays(event.target.value)}
        />
      }
    >
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="storePrompts" checked={store} onChange={(event) => setStore(event.target.checked)} />
        Store prompt texts (to build prompt sets from what people really ask)
      </label>
    </KeptForm>
  );
}
