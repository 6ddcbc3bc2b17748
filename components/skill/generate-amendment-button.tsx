"use client";

import { useEffect, useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/result";
import { ActionMessage, useActionMessageSlot } from "@/components/action-message";
import { useHydrated } from "@/components/ui/use-hydrated";

/**
 * Asks the model for an amendment from the skill's recent failures. The model can take a while, so
 * the button says it is working (and for how long) while the rest of the page stays as it is; a
 * failure (an answer that does not fit, a model that does not answer) is said beside the button,
 * the new amendment at the top of the section.
 */
export function GenerateAmendmentButton({ generate }: { generate: () => Promise<ActionResult> }) {
  const say = useActionMessageSlot();
  const [failure, setFailure] = useState<ActionResult | null>(null);
  const [pending, startTransition] = useTransition();
  const hydrated = useHydrated();
  const seconds = useSecondsWhile(pending);
  const start = () => {
    if (!window.confirm("Ask the model for an amendment based on this skill's recent failures?")) return;
    setFailure(null);
    startTransition(async () => {
      const outcome = await generate();
      // Said in the transition that brings the refreshed page: the notice and the new amendment's row show together.
      if (outcome.ok) startTransition(() => say(outcome));
      else setFailure(outcome);
    });
  };
  return (
    <div className="flex w-full flex-wrap items-center gap-3" data-testid="generate-amendment" aria-busy={pending}>
      <button
        type="button"
        disabled={pending || !hydrated}
        onClick={start}
        className="inline-flex items-center gap-2 rounded-md border border-slate-300 px-3 py-1 text-sm hover:bg-slate-100 disabled:cursor-wait disabled:bg-slate-50"
      >
        {pending && <Spinner />}
        {pending ? "Generating…" : "Generate an amendment from recent failures"}
      </button>
      {/* Always there, so a screen reader announces the wait when it starts. */}
      <span role="status" aria-live="polite" className="text-xs text-slate-600" data-testid="generate-progress">
        {pending && (
          <>
            Asking the model for an amendment; this can take a minute.
            <span aria-hidden="true"> {seconds} s</span>
          </>
        )}
      </span>
      <div className="basis-full empty:hidden">
        <ActionMessage state={failure} />
      </div>
    </div>
  );
}

function Spinner() {
  return (
    <span
      aria-hidden="true"
      className="inline-block h-3.5 w-3.5 rounded-full border-2 border-slate-300 border-t-indigo-600 motion-safe:animate-spin"
    />
  );
}

/** Whole seconds since `running` became true: a cue that the wait is alive. */
function useSecondsWhile(running: boolean): number {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    if (!running) return;
    const started = Date.now();
    const timer = setInterval(() => setSeconds(Math.floor((Date.now() - started) / 1000)), 1000);
    return () => {
      clearInterval(timer);
      setSeconds(0);
    };
  }, [running]);
  return seconds;
}
