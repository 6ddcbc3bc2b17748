"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/result";
import { ActionMessage } from "@/components/action-message";

const EXAMPLE = JSON.stringify(
  {
    name: "my-prompts",
    cases: [
      { id: "D1", prompt: "Find the root cause of this failing test", expected: ["systematic-debugging"] },
      { id: "P1", prompt: "Something broke after the deploy and nobody knows why", expected: ["systematic-debugging"] },
      { id: "G1", prompt: "What is the capital of France?", expectNone: true },
    ],
  },
  null,
  2,
);

/** Prompt sets as JSON: pick one to edit or export, paste one to import. */
export function PromptSetEditor({ sets, save }: { sets: { name: string; json: string }[]; save: (json: string) => Promise<ActionResult> }) {
  const router = useRouter();
  const [json, setJson] = useState(sets[0]?.json ?? EXAMPLE);
  const [result, setResult] = useState<ActionResult | null>(null);
  const [pending, startTransition] = useTransition();
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        {sets.map((set) => (
          <button
            key={set.name}
            type="button"
            onClick={() => setJson(set.json)}
            className="rounded-md border border-slate-300 px-2 py-0.5 font-mono text-xs hover:bg-slate-100"
          >
            {set.name}
          </button>
        ))}
        <button
          type="button"
          onClick={() => setJson(EXAMPLE)}
          className="rounded-md border border-dashed border-slate-300 px-2 py-0.5 text-xs hover:bg-slate-100"
        >
          new from an example
        </button>
        <a
          download="prompt-set.json"
          href={`data:application/json;charset=utf-8,${encodeURIComponent(json)}`}
          className="ml-auto text-xs text-indigo-700 hover:underline"
        >
          Export this JSON
        </a>
      </div>
      <textarea
        aria-label="Prompt set JSON"
        name="prompt-set-json"
        value={json}
        onChange={(e) => setJson(e.target.value)}
        rows={12}
        spellCheck={false}
        className="block w-full rounded-md border border-slate-300 p-2 font-mono text-xs"
      />
      <button
        type="button"
        disabled={pending}
        onClick={() =>
          startTransition(async () => {
            const outcome = await save(json);
            setResult(outcome);
            if (outcome.ok) router.refresh();
          })
        }
        className="rounded-md border border-slate-300 px-3 py-1 text-sm hover:bg-slate-100 disabled:opacity-50"
      >
        Save prompt set
      </button>
      <ActionMessage state={result} />
    </div>
  );
}
