"use client";

import { useState } from "react";
import { RoleSelect } from "@/components/settings/role-select";
import { ShownOnce } from "@/components/settings/shown-once";
import { Field, KeptForm } from "@/components/ui/kept-form";
import type { FormAction } from "@/components/ui/use-kept-form";

/**
 * Invite by email with a role; the one-time link is shown once. A sent invitation clears the email
 * and keeps the role (the next person is often invited as the same); a refused one keeps both.
 */
export function InviteForm({ action }: { action: FormAction }) {
  const [email, setEmail] = useState("");
  const [role, setRole] = useState("viewer");
  return (
    <KeptForm
      label="Invite a person"
      action={action}
      onDone={() => setEmail("")}
      submit="Invite"
      row={
        <>
          <Field
            label="Email"
            width="w-64 max-w-full"
            name="email"
            type="email"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            placeholder="colleague@example.com"
          />
          <label className="text-sm font-medium">
            Role
            <RoleSelect value={role} onChange={setRole} />
          </label>
        </>
      }
      shown={(result) =>
        result.inviteUrl && (
          <ShownOnce title="Send this link to the person (shown once)" testId="invite-url" live>
            {result.inviteUrl}
          </ShownOnce>
        )
      }
    />
  );
}
