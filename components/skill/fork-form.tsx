"use client";

import Link from "next/link";
import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/result";
import { ActionMessage } from "@/components/action-message";
import { SubmitButton } from "@/components/ui/submit-button";

/** Fork into a new learned draft, in this team or another the person edits. */
export function ForkForm({
  source,
  teams,
  current,
  action,
}: {
  source: string;
  teams: string[];
  current: string;
  action: (input: { name: string; team: string }) => Promise<ActionResult>;
}) {
  const [name, setName] = useState(`${source}-fork`);
  const [team, setTeam] = useState(current);
  const [result, setResult] = useState<ActionResult | null>(null);
  const [pending, startTransition] = useTransition();
  return (
    <form
      aria-label="Fork"
      className="flex flex-wrap items-end gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (!window.confirm(`Fork "${source}" into a new draft "${name}" in team ${team}?`)) return;
        startTransition(async () => setResult(await action({ name, team })));
      }}
    >
      <label className="text-sm">
        New name
        <input
          value={name}
          onChange={(e) => setName(e.target.value)}
          name="fork-name"
          className="mt-1 block w-56 rounded-md border border-slate-300 px-2 py-1 font-mono text-sm"
        />
      </label>
      <label className="text-sm">
        Into team
        <select
          value={team}
          onChange={(e) => setTeam(e.target.value)}
          name="fork-team"
          className="mt-1 block rounded-md border border-slate-300 px-2 py-1 text-sm"
        >
          {teams.map((slug) => (
            <option key={slug} value={slug}>
              {slug}
            </option>
          ))}
        </select>
      </label>
      <SubmitButton tone="plain" pending={pending}>
        Fork
      </SubmitButton>
      <div className="w-full empty:hidden">
        <ActionMessage state={result}>
          {result?.ok && result.href && (
            <>
              {" "}
              <Link href={result.href} className="underline">
                Open the fork
              </Link>
            </>
          )}
        </ActionMessage>
      </div>
    </form>
  );
}
