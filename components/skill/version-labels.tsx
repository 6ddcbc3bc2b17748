"use client";

import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/result";
import { useNotice } from "@/components/action-notice";
import { ActionButton } from "./action-button";

/** What a lead may do with labels (§10), each absent when they may not. */
export interface LabelActions {
  moveLabel: ((label: string, version: number) => Promise<ActionResult>) | null;
  removeLabel: ((label: string) => Promise<ActionResult>) | null;
}

/** The labels on one version as chips, beside its number. */
export function LabelChips({ version, labels }: { version: number; labels: string[] }) {
  if (labels.length === 0) return null;
  return (
    <ul className="mt-1 flex flex-wrap gap-1 font-normal" aria-label={`labels on v${version}`}>
      {labels.map((label) => (
        <li key={label} className="rounded bg-sky-100 px-1.5 py-0.5 text-xs text-sky-900" data-label={label}>
          label: {label}
        </li>
      ))}
    </ul>
  );
}

/** A lead takes a label off its version. */
export function RemoveLabels({
  version,
  labels,
  removeLabel,
}: {
  version: number;
  labels: string[];
  removeLabel: NonNullable<LabelActions["removeLabel"]>;
}) {
  return labels.map((label) => (
    <ActionButton
      key={label}
      label={`Remove label ${label}`}
      confirm={`Take label ${label} off v${version}? Readers that ask for it get the default version.`}
      action={removeLabel.bind(null, label)}
    />
  ));
}

/**
 * Puts a label on this version, new or moved from another version. The versions table is a GET form
 * (compare two versions), so this is no form of its own: Enter in the box acts here instead of
 * submitting the comparison.
 */
export function LabelVersion({ version, moveLabel }: { version: number; moveLabel: NonNullable<LabelActions["moveLabel"]> }) {
  const router = useRouter();
  const notify = useNotice();
  const inputId = useId();
  const [label, setLabel] = useState("");
  const [refusal, setRefusal] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const submit = () =>
    startTransition(async () => {
      const outcome = await moveLabel(label.trim(), version);
      setRefusal(outcome.ok ? null : outcome.message);
      if (!outcome.ok) return;
      setLabel("");
      notify(outcome.message);
      router.refresh();
    });
  return (
    <span className="inline-flex flex-col items-end gap-1" data-testid={`label-v${version}`}>
      <span className="inline-flex gap-1">
        <label htmlFor={inputId} className="sr-only">
          Label for v{version}
        </label>
        <input
          id={inputId}
          // The form around the table is the comparison's: a name here would be sent with it.
          value={label}
          onChange={(event) => setLabel(event.target.value)}
          onKeyDown={(event) => {
            if (event.key !== "Enter") return;
            event.preventDefault();
            if (label.trim()) submit();
          }}
          placeholder="staging"
          maxLength={64}
          className="w-24 rounded-md border border-slate-300 px-2 py-1 text-sm"
        />
        <button
          type="button"
          disabled={pending || !label.trim()}
          onClick={submit}
          className="rounded-md border border-slate-300 px-3 py-1 text-sm text-slate-800 hover:bg-slate-100 disabled:opacity-50"
        >
          Label v{version}
        </button>
      </span>
      {refusal && (
        <span role="alert" className="text-xs text-red-700">
          {refusal}
        </span>
      )}
    </span>
  );
}
