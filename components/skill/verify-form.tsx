"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/result";
import type { VerifyForm as VerifyInput } from "@/lib/contracts/learned";
import { ActionMessage } from "@/components/action-message";
import { SubmitButton } from "@/components/ui/submit-button";

const FIELDS = [
  ["reviewer", "Reviewer"],
  ["attempts", "What they tried to break"],
  ["findings", "Findings"],
  ["verdict", "Verdict"],
] as const;

/** Sets the tier of the current version; "verified" needs the hostile review report filled in. */
export function VerifyForm({ version, action }: { version: number; action: (input: VerifyInput) => Promise<ActionResult> }) {
  const router = useRouter();
  const [input, setInput] = useState<VerifyInput>({
    tier: "verified",
    expectedVersion: version,
    reviewer: "",
    attempts: "",
    findings: "",
    verdict: "",
  });
  const [result, setResult] = useState<ActionResult | null>(null);
  const [pending, startTransition] = useTransition();
  return (
    <form
      aria-label="Verify"
      className="grid grid-cols-1 gap-2 md:grid-cols-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (!window.confirm(`Mark v${version} ${input.tier}?`)) return;
        startTransition(async () => {
          const outcome = await action({ ...input, expectedVersion: version });
          setResult(outcome);
          if (outcome.ok) router.refresh();
        });
      }}
    >
      <label className="text-sm">
        Tier for v{version}
        <select
          value={input.tier}
          onChange={(e) => setInput({ ...input, tier: e.target.value as VerifyInput["tier"] })}
          name="tier"
          className="mt-1 block rounded-md border border-slate-300 px-2 py-1 text-sm"
        >
          <option value="reviewed">reviewed</option>
          <option value="verified">verified (needs the report)</option>
        </select>
      </label>
      {FIELDS.map(([field, label]) => (
        <label key={field} className="text-sm">
          {label}
          <textarea
            name={field}
            rows={field === "reviewer" || field === "verdict" ? 1 : 2}
            value={input[field]}
            onChange={(e) => setInput({ ...input, [field]: e.target.value })}
            className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1 text-sm"
          />
        </label>
      ))}
      <div className="flex flex-wrap items-center gap-3 md:col-span-2">
        <SubmitButton tone="plain" pending={pending}>
          Set tier
        </SubmitButton>
        <ActionMessage state={result} />
      </div>
    </form>
  );
}
