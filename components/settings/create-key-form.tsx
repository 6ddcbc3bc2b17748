"use client";

import { useState } from "react";
import type { Scope } from "@/lib/auth/scopes";
import { ShownOnce } from "@/components/settings/shown-once";
import { Field, KeptForm } from "@/components/ui/kept-form";
import type { FormAction } from "@/components/ui/use-kept-form";

/**
 * Scopes nest (docs/teams-and-keys.md#api-keys-and-scopes: admin ⊃ write ⊃ read), so a key gets one level of access, not a set of boxes;
 * a telemetry key (docs/teams-and-keys.md#api-keys-and-scopes) sends agent telemetry and nothing else: the key for developers' settings.
 */
const ACCESS: { scope: Scope; label: string }[] = [
  { scope: "read", label: "read" },
  { scope: "write", label: "read + write" },
  { scope: "admin", label: "read + write + admin" },
  { scope: "telemetry", label: "telemetry only" },
];

/**
 * Create a key; the name and access stay as chosen when the key is refused, and the name is cleared
 * once it is made (the next key needs a name of its own). The new key shows until it is revoked.
 */
export function CreateKeyForm({ action, revoked }: { action: FormAction; revoked: number[] }) {
  const [name, setName] = useState("");
  const [access, setAccess] = useState<Scope>("read");
  return (
    <KeptForm
      label="Create API key"
      action={action}
      onDone={() => setName("")}
      submit="Create key"
      row={
        <>
          <Field
            label="Name"
            width="w-48"
            name="name"
            required
            maxLength={80}
            placeholder="ci-sync"
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
          <fieldset className="flex flex-wrap items-center gap-3 text-sm">
            <legend className="sr-only">Access</legend>
            {ACCESS.map(({ scope, label }) => (
              <label key={scope} className="flex items-center gap-1">
                <input type="radio" name="access" value={scope} checked={access === scope} onChange={() => setAccess(scope)} /> {label}
              </label>
            ))}
          </fieldset>
        </>
      }
      shown={(result) =>
        result.key &&
        result.keyId !== undefined && (
          <ShownOnce title="New API key (shown once)" testId="new-key" live={!revoked.includes(result.keyId)}>
            {result.key}
          </ShownOnce>
        )
      }
    />
  );
}
