"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/result";
import { ActionMessage } from "@/components/action-message";
import { useHydrated } from "@/components/ui/use-hydrated";

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

/**
 * Prompt sets as JSON: open one to edit or export (its address, `href`, brings its cases: a set
 * can hold thousands, so the page holds only the one opened), paste one to import.
 */
export function PromptSetEditor({
  sets,
  opened,
  save,
}: {
  sets: { name: string; cases: number; href: string }[];
  opened: { name: string; json: string } | null;
  save: (json: string) => Promise<ActionResult>;
}) {
  const router = useRouter();
  const [json, setJson] = useState(opened?.json ?? EXAMPLE);
  const [result, setResult] = useState<ActionResult | null>(null);
  const [pending, startTransition] = useTransition();
  const hydrated = useHydrated();
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        {sets.map((set) => (
          <Link
            key={set.name}
            href={set.href}
            prefetch={false}
            aria-current={set.name === opened?.name ? "true" : undefined}
            className="rounded-md border border-slate-300 px-2 py-0.5 font-mono text-xs hover:bg-slate-100 aria-[current]:border-indigo-500 aria-[current]:bg-indigo-50"
          >
            {set.name} ({set.cases.toLocaleString("en-US")})
          </Link>
        ))}
        <button
          type="button"
          disabled={!hydrated}
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
        disabled={pending || !hydrated}
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
