import type { Word } from "@/lib/learned/word-diff";

/** A changed word stands out from its line's tint; dark text on these keeps axe's contrast (well past 4.5:1). */
const MARK = {
  removed: "rounded-sm bg-rose-200 text-rose-950 no-underline",
  added: "rounded-sm bg-emerald-200 text-emerald-950 no-underline",
};

/**
 * A removed or added line's text as <del>/<ins>: only the changed words when the line pairs with one
 * on the other side (`words`), the whole line otherwise, left on its row's tint without a mark.
 */
export function MarkedText({ side, text, words }: { side: "removed" | "added"; text: string; words: Word[] | null }) {
  const Tag = side === "removed" ? "del" : "ins";
  if (!words) return text === "" ? null : <Tag className="no-underline">{text}</Tag>;
  return words.map((word, i) =>
    word.changed ? (
      <Tag key={i} className={MARK[side]}>
        {word.text}
      </Tag>
    ) : (
      word.text
    ),
  );
}
