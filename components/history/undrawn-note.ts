import type { Undrawn, UndrawnEvaluation } from "@/lib/evolution/evaluation-outcomes";

/** Amendments named in a note before it says how many more: the note stays a sentence, not a list. */
const NAMED = 5;
const LIST = new Intl.ListFormat("en-GB", { type: "conjunction" });

/** "amendment #15", "amendments #15 and #16", "amendments #1, #2, #3, #4, #5 and 2 more": each once, oldest first. */
function amendments(ids: readonly number[]): string {
  const unique = [...new Set(ids)];
  const named = unique.slice(0, NAMED).map((id) => `#${id}`);
  const more = unique.length - named.length;
  return `amendment${unique.length === 1 ? "" : "s"} ${LIST.format(more > 0 ? [...named, `${more} more`] : named)}`;
}

const SENTENCES: Record<Undrawn, (n: number, named: string) => string> = {
  inconclusive: (n, named) =>
    `${n} inconclusive evaluation${n === 1 ? " is" : "s are"} not drawn: ${named} had no judged case, so no delta.`,
  running: (n, named) => `${n} evaluation${n === 1 ? " is" : "s are"} still running, not drawn yet: ${named}.`,
  failed: (n, named) => `${n} failed evaluation${n === 1 ? " is" : "s are"} not drawn: ${named}.`,
};

/**
 * What the evaluation deltas chart leaves out and how many, by amendment number, one sentence per
 * reason; null when it draws every evaluation. Pure.
 */
export function undrawnNote(undrawn: readonly UndrawnEvaluation[]): string | null {
  const sentences = (["inconclusive", "running", "failed"] as const).flatMap((why) => {
    const these = undrawn.filter((e) => e.why === why);
    return these.length === 0 ? [] : [SENTENCES[why](these.length, amendments(these.map((e) => e.amendmentId)))];
  });
  return sentences.length === 0 ? null : sentences.join(" ");
}
