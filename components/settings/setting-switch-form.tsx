"use client";

import { useState } from "react";
import { KeptForm } from "@/components/ui/kept-form";
import type { FormAction } from "@/components/ui/use-kept-form";

/**
 * One of the team's on/off settings (docs/teams-and-keys.md#team-settings) — auto-promotion, reasons for decisions — as a checkbox
 * and a Save: `name` is the field the action reads, `label` what the box says.
 */
export function SettingSwitchForm({
  action,
  name,
  title,
  label,
  on: initial,
}: {
  action: FormAction;
  name: string;
  /** The form's accessible name. */
  title: string;
  label: string;
  on: boolean;
}) {
  const [on, setOn] = useState(initial);
  return (
    <KeptForm label={title} action={action} submit="Save">
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name={name} checked={on} onChange={(event) => setOn(event.target.checked)} />
        {label}
      </label>
    </KeptForm>
  );
}
