"use client";

import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/result";
import { ActionMessage, useActionMessageSlot } from "@/components/action-message";
import { buttonClass } from "@/components/ui/submit-button";
import { useHydrated } from "@/components/ui/use-hydrated";

/**
 * Re-propose an out-of-date amendment against the skill's current version (docs/evaluation-and-activation.md#out-of-date-amendments). Done, the row
 * changes (the old amendment is superseded), so it is said in the section's slot; a change that
 * does not apply cleanly is said here, with the model's offer to write it again when there is one.
 */
export function ReproposeButton({
  amendmentId,
  current,
  hasModel,
  repropose,
}: {
  amendmentId: number;
  current: number;
  hasModel: boolean;
  repropose: (regenerate: boolean) => Promise<ActionResult>;
}) {
  const say = useActionMessageSlot();
  const [refusal, setRefusal] = useState<ActionResult | null>(null);
  const [pending, startTransition] = useTransition();
  const hydrated = useHydrated();
  const run = (regenerate: boolean, question: string) => {
    if (!window.confirm(question)) return;
    setRefusal(null);
    startTransition(async () => {
      const outcome = await repropose(regenerate);
      if (outcome.ok) say(outcome);
      else setRefusal(outcome);
    });
  };
  const conflict = refusal?.ok === false && refusal.mergeConflict === true;
  return (
    <div className="space-y-2 text-left" data-testid="repropose" aria-busy={pending}>
      <button
        type="button"
        disabled={pending || !hydrated}
        className={buttonClass("primary", "xs")}
        onClick={() =>
          run(
            false,
            `Re-propose amendment #${amendmentId} against v${current}? Its change is applied to the text of v${current} as a new amendment, which replaces #${amendmentId}.`,
          )
        }
      >
        Re-propose against v{current}
      </button>
      <ActionMessage state={refusal} />
      {conflict && hasModel && (
        <button
          type="button"
          disabled={pending || !hydrated}
          className={buttonClass("plain", "xs")}
          onClick={() =>
            run(
              true,
              `Ask the model to write amendment #${amendmentId}'s change again for v${current}, from the skill's recorded failures?`,
            )
          }
        >
          {pending ? "Regenerating…" : "Regenerate with the model"}
        </button>
      )}
    </div>
  );
}
