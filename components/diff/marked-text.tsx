import type { Word } from "@/lib/learned/word-diff";

/**
 * A removed or added line's text as <del>/<ins>: only the changed words when the line pairs with one
 * on the other side (`words`), the whole line otherwise (.whole: left on its row's tint without a mark).
 * Styles in globals.css: a diff repeats this hundreds of times.
 */
export function MarkedText({ side, text, words }: { side: "removed" | "added"; text: string; words: Word[] | null }) {
  const Tag = side === "removed" ? "del" : "ins";
  if (!words) return text === "" ? null : <Tag className="whole">{text}</Tag>;
  return words.map((word, i) => (word.changed ? <Tag key={i}>{word.text}</Tag> : word.text));
}
