"use client";

import { markdown } from "@codemirror/lang-markdown";
import { EditorState } from "@codemirror/state";
import CodeMirror, { EditorView } from "@uiw/react-codemirror";
import { useRouter } from "next/navigation";
import { useMemo, useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/result";
import { ActionMessage } from "@/components/action-message";
import type { SaveSkillForm } from "@/lib/contracts/learned";
import { hasChanges, sideBySide, type DiffRow } from "@/lib/learned/side-by-side";
import { composeSkillMd, splitSkillMd } from "@/lib/skills/skill-md";
import { DescriptionField } from "@/components/description-field";
import { DiffView } from "@/components/diff-view";
import { useHydrated } from "@/components/ui/use-hydrated";
import type { DiffViewChoice } from "@/components/diff/view-choice";

/** The editor's text area has a name a screen reader says (axe: aria-input-field-name). */
const EDITOR_LABEL = EditorView.contentAttributes.of({ "aria-label": "Body of the skill (Markdown)", tabindex: "0" });

const BUTTON = "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm";

interface Props {
  name: string;
  version: number;
  /** The frontmatter fields of the current version, so the preview composes exactly what the server will. */
  fields: Record<string, unknown> & { name: string; description: string };
  /** The current SKILL.md; the editor edits its body. Sent once: a body can be 256 KiB. */
  currentText: string;
  descMax: number;
  save: (input: SaveSkillForm) => Promise<ActionResult>;
  /** Offer the change as an amendment instead: it is evaluated before it can become a version. */
  propose?: (input: { description: string; body: string; rationale: string }) => Promise<ActionResult>;
  /** The page's choice of view for the diffs; its links keep this edit open (they navigate without reloading). */
  diffView: DiffViewChoice;
}

/**
 * The learned skill editor: the body in a Markdown code editor, the description with live lint,
 * and the change as a side-by-side diff against the current version before anything is saved.
 * A stale save shows the version that is there now instead of overwriting it.
 */
export function SkillEditor({ name, version, fields, currentText, descMax, save, propose, diffView }: Props) {
  const initialBody = useMemo(() => splitSkillMd(currentText)?.body ?? "", [currentText]);
  const router = useRouter();
  const [description, setDescription] = useState(fields.description);
  const [body, setBody] = useState(initialBody);
  const [reason, setReason] = useState("");
  const [base, setBase] = useState({ version, text: currentText });
  const [reviewing, setReviewing] = useState(false);
  const [result, setResult] = useState<ActionResult | null>(null);
  const [pending, startTransition] = useTransition();
  const hydrated = useHydrated();
  // When the skill moves on without this editor (a rollback, a promotion), start again from the
  // new version; after this editor's own save the version is already its base, and "Saved as vN" stays.
  const [shown, setShown] = useState(version);
  if (version !== shown) {
    setShown(version);
    if (version !== base.version) {
      setBase({ version, text: currentText });
      setDescription(fields.description);
      setBody(splitSkillMd(currentText)?.body ?? "");
      setReviewing(false);
      setResult(null);
    }
  }
  const proposed = composeSkillMd({ ...fields, description }, body);
  const rows = useMemo(() => sideBySide(base.text, proposed), [base.text, proposed]);
  const conflict = result && !result.ok ? result.conflict : undefined;

  /** Saves or proposes; what comes back is said under the editor, and on success the page refreshes. */
  const send = (work: () => Promise<ActionResult>, afterSave?: (outcome: Extract<ActionResult, { ok: true }>) => void) =>
    startTransition(async () => {
      const outcome = await work();
      setResult(outcome);
      if (!outcome.ok) return;
      setReviewing(false);
      afterSave?.(outcome);
      router.refresh();
    });
  const submit = () =>
    send(
      () => save({ description, body, reason, expectedVersion: base.version }),
      (outcome) => {
        setReason("");
        if (outcome.version) setBase({ version: outcome.version, text: proposed });
      },
    );
  const review = (from = base) => {
    setBase(from);
    setResult(null);
    setReviewing(true);
  };

  return (
    <div className="space-y-3" data-testid="skill-editor">
      {/* Typed into before hydration, the fields would show text their state never saw: they wait for it. */}
      <fieldset disabled={!hydrated} className="min-w-0 space-y-3">
        <DescriptionField name="description" value={description} onChange={setDescription} descMax={descMax} lintTestId="live-lint" />
        <BodyEditor value={body} onChange={setBody} crlf={initialBody.includes("\r\n")} />
        <ReasonAndReview reason={reason} onReason={setReason} onReview={() => review()} />
      </fieldset>

      {reviewing && (
        <ReviewPanel
          name={name}
          base={base.version}
          rows={rows}
          diffView={diffView}
          pending={pending}
          onSave={submit}
          onPropose={propose && (() => send(() => propose({ description, body, rationale: reason })))}
          onKeepEditing={() => setReviewing(false)}
        />
      )}
      <ActionMessage state={result} />
      {conflict && (
        <ConflictPanel name={name} conflict={conflict} proposed={proposed} diffView={diffView} onReview={() => review(conflict)} />
      )}
    </div>
  );
}

/** The body in a Markdown code editor, keeping the line endings it came with. */
function BodyEditor({ value, onChange, crlf }: { value: string; onChange: (body: string) => void; crlf: boolean }) {
  const separator = useMemo(() => (crlf ? [EditorState.lineSeparator.of("\r\n")] : []), [crlf]);
  return (
    <div className="overflow-hidden rounded-md border border-slate-300 text-sm">
      <CodeMirror
        value={value}
        height="320px"
        extensions={[markdown(), EDITOR_LABEL, EditorView.lineWrapping, ...separator]}
        onChange={onChange}
        basicSetup={{ foldGutter: false }}
      />
    </div>
  );
}

/** Why the change is made (it goes in the version's history, or the amendment's rationale), and the way to the diff before saving. */
function ReasonAndReview({ reason, onReason, onReview }: { reason: string; onReason: (reason: string) => void; onReview: () => void }) {
  return (
    <div className="flex flex-wrap items-end gap-3">
      <label className="max-w-full text-sm">
        Reason for the change
        <input
          value={reason}
          onChange={(e) => onReason(e.target.value)}
          name="reason"
          placeholder="what the last runs taught"
          className="mt-1 block w-96 max-w-full rounded-md border border-slate-300 px-2 py-1 text-sm"
        />
      </label>
      <button type="button" onClick={onReview} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100">
        Review changes
      </button>
    </div>
  );
}

/** The change against the version being edited, and the ways on from there. */
function ReviewPanel({
  name,
  base,
  rows,
  diffView,
  pending,
  onSave,
  onPropose,
  onKeepEditing,
}: {
  name: string;
  base: number;
  rows: DiffRow[];
  diffView: DiffViewChoice;
  pending: boolean;
  onSave: () => void;
  /** Absent where a change cannot be proposed as an amendment. */
  onPropose: (() => void) | undefined;
  onKeepEditing: () => void;
}) {
  return (
    <div className="space-y-2 rounded-md border border-indigo-200 bg-indigo-50 p-3" data-testid="diff-preview">
      {hasChanges(rows) ? (
        <>
          <p className="text-sm">Your change against v{base}, the version you are editing:</p>
          <DiffView rows={rows} left={`${name}@v${base}`} right="your edit" choice={diffView} />
          <div className="flex gap-2">
            <button
              type="button"
              disabled={pending}
              onClick={onSave}
              className="rounded-md bg-indigo-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-600 disabled:opacity-50"
            >
              Save as v{base + 1}
            </button>
            {onPropose && (
              <button
                type="button"
                disabled={pending}
                onClick={onPropose}
                className="rounded-md border border-indigo-700 bg-white px-3 py-1.5 text-sm font-medium text-indigo-800 hover:bg-indigo-50 disabled:opacity-50"
              >
                Propose as amendment
              </button>
            )}
            <button type="button" onClick={onKeepEditing} className={BUTTON}>
              Keep editing
            </button>
          </div>
        </>
      ) : (
        <p className="text-sm">Nothing has changed yet.</p>
      )}
    </div>
  );
}

/** Someone else saved first: their version against this edit, and a way to carry the edit onto it. */
function ConflictPanel({
  name,
  conflict,
  proposed,
  diffView,
  onReview,
}: {
  name: string;
  conflict: { version: number; text: string };
  proposed: string;
  diffView: DiffViewChoice;
  onReview: () => void;
}) {
  return (
    <div className="space-y-2 rounded-md border border-red-200 bg-red-50 p-3" data-testid="conflict">
      <p className="text-sm">
        Someone saved v{conflict.version} while you were editing. Nothing was overwritten. Here is v{conflict.version} against your edit:
      </p>
      <DiffView rows={sideBySide(conflict.text, proposed)} left={`${name}@v${conflict.version}`} right="your edit" choice={diffView} />
      <button type="button" onClick={onReview} className={BUTTON}>
        Review my edit on top of v{conflict.version}
      </button>
    </div>
  );
}
