"use client";

import { ActionMessage } from "@/components/action-message";
import { claudeCodeSettings, SettingsBlock } from "@/components/connect-telemetry";
import { ShownOnce } from "@/components/settings-forms";
import { SubmitButton } from "@/components/ui/submit-button";
import { useKeptForm, type FormAction } from "@/components/ui/use-kept-form";

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
  const { state, pending, onSubmit } = useKeptForm(action);
  const shown = state?.ok && state.key && state.keyId !== undefined && state.keyId === live?.id ? state.key : null;
  return (
    <form onSubmit={onSubmit} className="space-y-3" aria-label="Make my Claude Code key">
      <p className="text-sm" data-testid="my-key-status">
        {live ? (
          <>
            Your key is <code className="font-mono text-xs">{live.prefix}…</code>. A new one replaces it: the old one stops working at once.
          </>
        ) : (
          "You have no key yet."
        )}
      </p>
      <SubmitButton pending={pending}>{live ? "Make a new key" : "Make my key"}</SubmitButton>
      <ActionMessage state={state} />
      {shown && (
        <div className="space-y-2">
          <ShownOnce title="Your Claude Code key (shown once)" testId="my-key" live>
            {shown}
          </ShownOnce>
          <p className="text-sm">
            Put this <code>env</code> block in your <code>~/.claude/settings.json</code>:
          </p>
          <SettingsBlock testId="my-key-env">{claudeCodeSettings(origin, shown)}</SettingsBlock>
        </div>
      )}
    </form>
  );
}
