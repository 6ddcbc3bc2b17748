"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/result";

export interface AmendmentView {
  id: number;
  baseVersion: number;
  origin: string;
  rationale: string;
  status: string;
  createdAt: string;
  evaluation: { id: number; status: string; verdict: string | null; promotedVersion: number | null } | null;
}

interface Actions {
  evaluate: (amendmentId: number) => Promise<ActionResult>;
  promote: (amendmentId: number, reason: string) => Promise<ActionResult>;
  generate: (() => Promise<ActionResult>) | null;
}

/** Amendments of the skill: evaluate one, promote an improved one, or (a lead) override with a reason. */
export function AmendmentsPanel({
  slug,
  amendments,
  actions,
  isLead,
  hasModel,
}: {
  slug: string;
  amendments: AmendmentView[];
  actions: Actions;
  isLead: boolean;
  hasModel: boolean;
}) {
  const router = useRouter();
  const [result, setResult] = useState<ActionResult | null>(null);
  const [reasons, setReasons] = useState<Record<number, string>>({});
  const [pending, startTransition] = useTransition();
  const act = (work: () => Promise<ActionResult>, confirmText: string) => {
    if (!window.confirm(confirmText)) return;
    startTransition(async () => {
      const outcome = await work();
      setResult(outcome);
      if (outcome.ok && outcome.href) router.push(outcome.href);
      else if (outcome.ok) router.refresh();
    });
  };
  const { generate } = actions;
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-3">
        {generate && hasModel && (
          <button
            disabled={pending}
            onClick={() => act(generate, "Ask the model for an amendment based on this skill's recent failures?")}
            className="rounded-md border border-slate-300 px-3 py-1 text-sm hover:bg-slate-100 disabled:opacity-50"
          >
            Generate an amendment from recent failures
          </button>
        )}
        {!hasModel && <span className="text-xs text-slate-500">Set SKILLGATE_MODEL to evaluate or generate amendments.</span>}
      </div>
      {result && (
        <p role="status" className={`text-sm ${result.ok ? "text-emerald-700" : "text-red-700"}`}>
          {result.message}
        </p>
      )}
      {amendments.length === 0 ? (
        <p className="text-sm text-slate-500">No amendments yet. Propose one from the editor, or let an agent post one.</p>
      ) : (
        <table className="w-full text-sm" data-testid="amendments">
          <thead className="text-left text-xs uppercase text-slate-500">
            <tr>
              <th className="py-1">#</th>
              <th className="py-1">Against</th>
              <th className="py-1">From</th>
              <th className="py-1">Rationale</th>
              <th className="py-1">Evaluation</th>
              <th className="py-1" />
            </tr>
          </thead>
          <tbody>
            {amendments.map((a) => {
              const verdict = a.evaluation?.verdict ?? null;
              return (
                <tr key={a.id} className="border-t border-slate-100 align-top" data-amendment={a.id}>
                  <td className="py-1.5">
                    <Link className="text-indigo-700 underline" href={`/t/${slug}/history/amendments/${a.id}`}>
                      #{a.id}
                    </Link>
                  </td>
                  <td className="py-1.5">v{a.baseVersion}</td>
                  <td className="py-1.5">{a.origin}</td>
                  <td className="py-1.5 text-slate-700">{a.rationale}</td>
                  <td className="py-1.5">
                    {a.evaluation ? (
                      <Link className="text-indigo-700 hover:underline" href={`/t/${slug}/history/evaluations/${a.evaluation.id}`}>
                        #{a.evaluation.id} {a.evaluation.status === "finished" ? verdict : a.evaluation.status}
                      </Link>
                    ) : (
                      "not evaluated"
                    )}
                    {a.status === "promoted" && <span className="ml-1 text-emerald-700">· promoted</span>}
                  </td>
                  <td className="space-y-1 py-1.5 text-right">
                    {a.status !== "promoted" && hasModel && (
                      <button
                        disabled={pending}
                        onClick={() => act(() => actions.evaluate(a.id), `Evaluate amendment #${a.id} against this skill's recorded runs?`)}
                        className="rounded-md border border-slate-300 px-2 py-0.5 text-xs hover:bg-slate-100"
                      >
                        Evaluate
                      </button>
                    )}
                    {a.status !== "promoted" && verdict === "improved" && (
                      <button
                        disabled={pending}
                        onClick={() => act(() => actions.promote(a.id, ""), `Promote amendment #${a.id}? It becomes the next version.`)}
                        className="ml-1 rounded-md bg-emerald-700 px-2 py-0.5 text-xs text-white hover:bg-emerald-600"
                      >
                        Promote
                      </button>
                    )}
                    {a.status !== "promoted" && verdict !== "improved" && isLead && (
                      <span className="ml-1 inline-flex items-center gap-1">
                        <input
                          aria-label={`Reason to override amendment #${a.id}`}
                          placeholder="reason to override"
                          value={reasons[a.id] ?? ""}
                          onChange={(e) => setReasons({ ...reasons, [a.id]: e.target.value })}
                          className="w-40 rounded-md border border-slate-300 px-1 py-0.5 text-xs"
                        />
                        <button
                          disabled={pending}
                          onClick={() =>
                            act(
                              () => actions.promote(a.id, reasons[a.id] ?? ""),
                              `Promote amendment #${a.id} against its verdict (${verdict ?? "not evaluated"})? This is recorded as a manual override.`,
                            )
                          }
                          className="rounded-md border border-amber-400 px-2 py-0.5 text-xs text-amber-900 hover:bg-amber-50"
                        >
                          Override
                        </button>
                      </span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </div>
  );
}
