"use client";

import { markdown } from "@codemirror/lang-markdown";
import CodeMirror from "@uiw/react-codemirror";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/result";
import { ActionMessage } from "@/components/action-message";
import { SubmitButton } from "@/components/ui/submit-button";
import { DescriptionField } from "@/components/description-field";
import { CARD } from "@/components/ui/card";

type Input = { name: string; description: string; body: string; status: "draft" | "active"; reason: string };

/** Write a new learned skill: name, description with live lint, body in the Markdown editor. */
export function NewSkillForm({ descMax, action }: { descMax: number; action: (input: Input) => Promise<ActionResult> }) {
  const router = useRouter();
  const [input, setInput] = useState<Input>({ name: "", description: "", body: "# \n\n1. \n", status: "draft", reason: "" });
  const [result, setResult] = useState<ActionResult | null>(null);
  const [pending, startTransition] = useTransition();
  return (
    <details className={`${CARD} p-4`}>
      <summary className="cursor-pointer font-semibold">New learned skill</summary>
      <form
        aria-label="New learned skill"
        className="mt-3 space-y-3"
        onSubmit={(event) => {
          event.preventDefault();
          startTransition(async () => {
            const outcome = await action(input);
            setResult(outcome);
            if (outcome.ok && outcome.href) router.push(outcome.href);
          });
        }}
      >
        <NameAndStatus input={input} setInput={setInput} />
        <DescriptionField
          name="new-description"
          value={input.description}
          onChange={(description) => setInput({ ...input, description })}
          descMax={descMax}
        />
        <div className="overflow-hidden rounded-md border border-slate-300 text-sm">
          <CodeMirror
            value={input.body}
            height="200px"
            extensions={[markdown()]}
            onChange={(body) => setInput((current) => ({ ...current, body }))}
            basicSetup={{ foldGutter: false }}
          />
        </div>
        <label className="block text-sm">
          Why it exists
          <input
            name="new-reason"
            value={input.reason}
            onChange={(e) => setInput({ ...input, reason: e.target.value })}
            className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1 text-sm"
          />
        </label>
        <SubmitButton pending={pending}>Create</SubmitButton>
        <ActionMessage state={result} />
      </form>
    </details>
  );
}

function NameAndStatus({ input, setInput }: { input: Input; setInput: (input: Input) => void }) {
  return (
    <div className="flex flex-wrap gap-3">
      <label className="text-sm font-medium">
        Name
        <input
          name="new-name"
          value={input.name}
          onChange={(e) => setInput({ ...input, name: e.target.value })}
          placeholder="incident-review"
          className="mt-1 block w-64 rounded-md border border-slate-300 px-2 py-1 font-mono text-sm"
        />
      </label>
      <label className="text-sm font-medium">
        Status
        <select
          name="new-status"
          value={input.status}
          onChange={(e) => setInput({ ...input, status: e.target.value as Input["status"] })}
          className="mt-1 block rounded-md border border-slate-300 px-2 py-1 text-sm"
        >
          <option value="draft">draft (not in the listing until promoted)</option>
          <option value="active">active (in the listing now)</option>
        </select>
      </label>
    </div>
  );
}
