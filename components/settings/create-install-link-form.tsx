"use client";

import { useState } from "react";
import { ShownOnce } from "@/components/settings/shown-once";
import { KeptForm } from "@/components/ui/kept-form";
import type { FormAction } from "@/components/ui/use-kept-form";

/**
 * Where an install link ends up (issue 28): the `skills` installer writes it, token included, into
 * the project's skills-lock.json, which is committed, and (unless told not to) into its telemetry.
 */
const INSTALL_LINK_NOTE = (
  <span data-testid="install-link-note">
    <code>npx skills add</code> writes this link, token included, into the project&apos;s <code>skills-lock.json</code>, which is meant to
    be committed: anyone who can read the repository can then read the team&apos;s skills through it until it is revoked. Give each
    repository a link of its own (for a label, if it should install that label&apos;s versions); when one leaks, revoke it below and make a
    new one. Run the installer with <code>DO_NOT_TRACK=1</code>, or it also sends the link to its telemetry service (add-skill.vercel.sh).
  </span>
);

/**
 * Create an install link, for the default versions or a label; a refused label stays to be fixed,
 * and the install command shows until the link is revoked.
 */
export function CreateInstallLinkForm({ action, revoked }: { action: FormAction; revoked: number[] }) {
  const [label, setLabel] = useState("");
  return (
    <KeptForm
      label="Create install link"
      action={action}
      onDone={() => setLabel("")}
      submit="Create install link"
      shown={(result) =>
        result.installUrl &&
        result.installLinkId !== undefined && (
          <ShownOnce
            title="Install with (shown once)"
            testId="install-command"
            live={!revoked.includes(result.installLinkId)}
            note={INSTALL_LINK_NOTE}
          >
            {`npx skills add ${result.installUrl}`}
          </ShownOnce>
        )
      }
    >
      <label className="block text-sm">
        <span className="text-slate-700">For a label (optional: installs the versions with this label, e.g. staging)</span>
        <input
          name="label"
          value={label}
          onChange={(event) => setLabel(event.target.value)}
          placeholder="default versions"
          maxLength={64}
          className="mt-1 block w-full max-w-xs rounded-md border border-slate-300 px-2 py-1 text-sm"
        />
      </label>
    </KeptForm>
  );
}
