import { CARD } from "./card";

/** A card that opens on a long text shown exactly as written (what agents are given), kept closed so the page stays short. */
export function TextDetails({ summary, testId, text }: { summary: string; testId: string; text: string }) {
  return (
    <details className={`${CARD} p-4`}>
      <summary className="cursor-pointer font-semibold">{summary}</summary>
      <pre
        className="mt-2 overflow-x-auto whitespace-pre rounded-md bg-slate-900 p-4 font-mono text-xs text-slate-100"
        data-testid={testId}
      >
        {text}
      </pre>
    </details>
  );
}
