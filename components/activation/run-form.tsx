"use client";

import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/result";
import { ActionMessage } from "@/components/action-message";
import { SubmitButton } from "@/components/ui/submit-button";

/** Start a run against the team's current listing. */
export function RunForm({
  promptSets,
  hasModel,
  start,
}: {
  promptSets: string[];
  hasModel: boolean;
  start: (input: { promptSet: string; activator: "lexical" | "model"; trials: number }) => Promise<ActionResult>;
}) {
  const [promptSet, setPromptSet] = useState(promptSets[0] ?? "");
  const [activator, setActivator] = useState<"lexical" | "model">("lexical");
  const [trials, setTrials] = useState(1);
  const [result, setResult] = useState<ActionResult | null>(null);
  const [pending, startTransition] = useTransition();
  if (promptSets.length === 0) return <p className="text-sm text-slate-500">Save a prompt set first (below).</p>;
  return (
    <form
      aria-label="Start a run"
      className="flex flex-wrap items-end gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        // A run that starts lands on its own page (the action redirects there); only a refusal comes back.
        startTransition(async () => setResult(await start({ promptSet, activator, trials: activator === "lexical" ? 1 : trials })));
      }}
    >
      <label className="text-sm">
        Prompt set
        <select
          name="promptSet"
          value={promptSet}
          onChange={(e) => setPromptSet(e.target.value)}
          className="mt-1 block rounded-md border border-slate-300 px-2 py-1 text-sm"
        >
          {promptSets.map((name) => (
            <option key={name}>{name}</option>
          ))}
        </select>
      </label>
      <label className="text-sm">
        Activator
        <select
          name="activator"
          value={activator}
          onChange={(e) => setActivator(e.target.value as "lexical" | "model")}
          className="mt-1 block rounded-md border border-slate-300 px-2 py-1 text-sm"
        >
          <option value="lexical">lexical (keyword matcher, no model)</option>
          <option value="model" disabled={!hasModel}>
            model{hasModel ? "" : " (set SKILLGATE_MODEL)"}
          </option>
        </select>
      </label>
      <Trials trials={trials} lexical={activator === "lexical"} onChange={setTrials} />
      <SubmitButton pending={pending}>Start run</SubmitButton>
      {/* A started run opens its page; only a refusal is said here. */}
      {result && !result.ok && (
        <div className="w-full">
          <ActionMessage state={result} />
        </div>
      )}
    </form>
  );
}

/** How many times each case runs; one, and fixed, for the keyword matcher, which the form says why. */
function Trials({ trials, lexical, onChange }: { trials: number; lexical: boolean; onChange: (trials: number) => void }) {
  return (
    <>
      <label className="text-sm">
        Trials
        <input
          name="trials"
          type="number"
          min={1}
          max={20}
          value={lexical ? 1 : trials}
          disabled={lexical}
          aria-describedby={lexical ? "lexical-trials" : undefined}
          onChange={(e) => onChange(Number(e.target.value))}
          className="mt-1 block w-20 rounded-md border border-slate-300 px-2 py-1 text-sm disabled:bg-slate-100"
        />
      </label>
      {lexical && (
        <p id="lexical-trials" className="w-full text-xs text-slate-600 sm:w-auto sm:self-center">
          The keyword matcher answers the same every time: one trial says it all.
        </p>
      )}
    </>
  );
}
