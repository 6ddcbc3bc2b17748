"use client";

import { claudeCodeSettings, SettingsBlock } from "@/components/connect-telemetry";
import { ShownOnce } from "@/components/settings/shown-once";
import { KeptForm } from "@/components/ui/kept-form";
import type { FormAction } from "@/components/ui/use-kept-form";

/**
 * Makes the signed-in member's own telemetry key (lib/auth/member-keys.ts) and shows it once, with
 * Claude Code's `env` block that uses it. The panel stays while the key it shows is the live one.
 */
export function MemberKeyForm({
  action,
  origin,
  live,
}: {
  action: FormAction;
  origin: string;
  /** The member's live key, if any: a new one replaces it. */
  live: { id: number; prefix: string } | null;
}) {
  return (
    <KeptForm
      label="Make my Claude Code key"
      action={action}
      submit={live ? "Make a new key" : "Make my key"}
      shown={(result) =>
        result.key &&
        result.keyId !== undefined &&
        result.keyId === live?.id && (
          <div className="space-y-2">
            <ShownOnce title="Your Claude Code key (shown once)" testId="my-key" live>
              {result.key}
            </ShownOnce>
            <p className="text-sm">
              Put this <code>env</code> block in your <code>~/.claude/settings.json</code>:
            </p>
            <SettingsBlock testId="my-key-env">{claudeCodeSettings(origin, result.key)}</SettingsBlock>
          </div>
        )
      }
    >
      <p className="text-sm" data-testid="my-key-status">
        {live ? (
          <>
            Your key is <code className="font-mono text-xs">{live.prefix}…</code>. A new one replaces it: the old one stops working at once.
          </>
        ) : (
          "You have no key yet."
        )}
      </p>
    </KeptForm>
  );
}
