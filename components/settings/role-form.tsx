"use client";

import { useState } from "react";
import { RoleSelect } from "@/components/settings/role-select";
import { KeptForm } from "@/components/ui/kept-form";
import type { FormAction } from "@/components/ui/use-kept-form";

/** A member's role, changed in place; the result says what happened (the last lead cannot be demoted). */
export function RoleForm({ action, email, role }: { action: FormAction; email: string; role: string }) {
  const [chosen, setChosen] = useState(role);
  return (
    <KeptForm label={`Role of ${email}`} action={action} submit="Save" tone="plain" size="xs" inline>
      <RoleSelect
        value={chosen}
        onChange={setChosen}
        label={`Role of ${email}`}
        className="rounded-md border border-slate-300 px-1 py-0.5 text-sm"
      />
    </KeptForm>
  );
}
