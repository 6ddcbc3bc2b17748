"use client";

import { useId, useState } from "react";
import type { ActionResult, Decision } from "@/lib/actions/result";
import { DecisionButton, DecisionDialog } from "@/components/decision-dialog";
import { buttonClass } from "@/components/ui/submit-button";
import { useHydrated } from "@/components/ui/use-hydrated";

/** What a lead may do with labels (docs/learned-skills.md#labels), each absent when they may not, each with the lead's reason. */
export interface LabelActions {
  moveLabel: ((label: string, version: number, decision: Decision) => Promise<ActionResult>) | null;
  removeLabel: ((label: string, decision: Decision) => Promise<ActionResult>) | null;
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
  reasonRequired,
}: {
  version: number;
  labels: string[];
  removeLabel: NonNullable<LabelActions["removeLabel"]>;
  reasonRequired: boolean;
}) {
  return labels.map((label) => (
    <DecisionButton
      key={label}
      label={`Remove label ${label}`}
      spec={{
        question: `Take label ${label} off v${version}? Readers that ask for it get the default version.`,
        confirm: `Remove label ${label}`,
        reasonRequired,
      }}
      action={removeLabel.bind(null, label)}
    />
  ));
}

/**
 * Puts a label on this version, new or moved from another version, after the lead says why in the
 * decision's dialog. The versions table is a GET form (compare two versions), so the box is no form
 * of its own: Enter in it opens the dialog instead of submitting the comparison.
 */
export function LabelVersion({
  version,
  moveLabel,
  reasonRequired,
}: {
  version: number;
  moveLabel: NonNullable<LabelActions["moveLabel"]>;
  reasonRequired: boolean;
}) {
  const inputId = useId();
  const [label, setLabel] = useState("");
  const [deciding, setDeciding] = useState<string | null>(null);
  // Typed before hydration, the text would be in the box but not in `label`: the box waits too.
  const hydrated = useHydrated();
  const decide = () => {
    if (label.trim()) setDeciding(label.trim());
  };
  return (
    <div className="inline-flex flex-col items-end gap-1" data-testid={`label-v${version}`}>
      <span className="inline-flex gap-1">
        <label htmlFor={inputId} className="sr-only">
          Label for v{version}
        </label>
        <input
          id={inputId}
          // The form around the table is the comparison's: a name here would be sent with it.
          value={label}
          disabled={!hydrated}
          onChange={(event) => setLabel(event.target.value)}
          onKeyDown={(event) => {
            if (event.key !== "Enter") return;
            event.preventDefault();
            decide();
          }}
          placeholder="add a label"
          maxLength={64}
          className="w-24 rounded-md border border-slate-300 px-2 py-1 text-sm"
        />
        <button type="button" disabled={!label.trim()} onClick={decide} className={buttonClass("plain", "sm")}>
          Label v{version}
        </button>
      </span>
      {deciding !== null && (
        <DecisionDialog
          spec={{
            question: `Put label ${deciding} on v${version}? Readers that ask for ${deciding} get v${version}.`,
            confirm: `Label v${version}`,
            reasonRequired,
          }}
          action={async (decision) => {
            const outcome = await moveLabel(deciding, version, decision);
            if (outcome.ok) setLabel("");
            return outcome;
          }}
          onClose={() => setDeciding(null)}
        />
      )}
    </div>
  );
}
