import { diffWordsWithSpace } from "diff";

/** A run of a line's text, and whether it is what changed (removed from the old line, added to the new). */
export interface Word {
  text: string;
  changed: boolean;
}

/** One line of a changed block: a removed line and the added line it became, or a line only removed or only added. */
export type LinePair = { before: string; after: string } | { before: string; after: null } | { before: null; after: string };

/** Two lines are alike, and shown as one line that changed, when at least half their text (by characters) is shared. */
const ALIKE = 0.5;
/**
 * Pairing compares every removed line with every added one. Past this many comparisons (a block of
 * hundreds of lines each way, a rewrite rather than an edit) lines pair by position, if alike.
 */
export const MAX_PAIRING_CELLS = 10_000;

/** Words, numbers, and each other character, as the likeness of two lines counts them; spaces do not count. */
const TOKEN = /[\p{L}\p{N}_]+|[^\p{L}\p{N}_\s]/gu;

function tokenCounts(line: string): { counts: Map<string, number>; length: number } {
  const counts = new Map<string, number>();
  let length = 0;
  for (const [token] of line.matchAll(TOKEN)) {
    counts.set(token, (counts.get(token) ?? 0) + 1);
    length += token.length;
  }
  return { counts, length };
}

type Tokens = ReturnType<typeof tokenCounts>;

/** The share of two lines' characters in tokens both hold (0 to 1), order aside: cheap enough to score every pair of a block. */
function likeness(a: Tokens, b: Tokens): number {
  if (a.length + b.length === 0) return 1;
  let shared = 0;
  for (const [token, count] of a.counts) shared += Math.min(count, b.counts.get(token) ?? 0) * token.length;
  return (2 * shared) / (a.length + b.length);
}

/**
 * The removed and added lines of one changed block, paired by likeness and kept in order: a list
 * renumbered by an inserted item pairs `2. Deploy.` with `3. Deploy.` and shows `2. Run tests.` as
 * added, where pairing by position would have changed every line after the insertion. The pairing
 * is the order-keeping one with the most likeness in total; lines left over are whole removals and
 * additions, a gap's removals before its additions. One line replaced by one line is a change
 * however different the two are: there is nothing else it could pair with.
 */
export function pairLines(removed: string[], added: string[]): LinePair[] {
  if (removed.length * added.length > MAX_PAIRING_CELLS) return pairByPosition(removed, added);
  const oneForOne = removed.length === 1 && added.length === 1;
  const addedTokens = added.map(tokenCounts);
  // scores[i][j]: how alike removed line i and added line j are; -1 where they may not pair.
  const scores = removed.map(tokenCounts).map((before) =>
    addedTokens.map((after) => {
      const value = likeness(before, after);
      return value >= ALIKE || oneForOne ? value : -1;
    }),
  );
  const score = (i: number, j: number) => scores[i - 1]?.[j - 1] ?? -1;
  // best[i][j]: the most likeness a pairing of the first i removed lines with the first j added ones reaches.
  const best = [new Float64Array(added.length + 1)];
  const total = (i: number, j: number) => best[i]?.[j] ?? 0;
  for (let i = 1; i <= removed.length; i++) {
    const row = new Float64Array(added.length + 1);
    best.push(row);
    for (let j = 1; j <= added.length; j++) {
      const pair = score(i, j);
      row[j] = Math.max(total(i - 1, j), total(i, j - 1), pair < 0 ? 0 : total(i - 1, j - 1) + pair);
    }
  }
  // Walked back from the end, taking a gap's additions before its removals: reversed, removals come first.
  const pairs: LinePair[] = [];
  for (let i = removed.length, j = added.length; i > 0 || j > 0;) {
    const before = removed[i - 1];
    const after = added[j - 1];
    const pair = score(i, j);
    if (before !== undefined && after !== undefined && pair >= 0 && total(i, j) === total(i - 1, j - 1) + pair) {
      pairs.push({ before, after });
      i--;
      j--;
    } else if (after !== undefined && total(i, j) === total(i, j - 1)) {
      pairs.push({ before: null, after });
      j--;
    } else if (before !== undefined) {
      pairs.push({ before, after: null });
      i--;
    } else break;
  }
  return pairs.reverse();
}

/** A block too big to compare all-to-all: the nth removed line pairs with the nth added one when they are alike. */
function pairByPosition(removed: string[], added: string[]): LinePair[] {
  const pairs: LinePair[] = [];
  for (let k = 0; k < Math.max(removed.length, added.length); k++) {
    const before = removed[k];
    const after = added[k];
    if (before !== undefined && after !== undefined && likeness(tokenCounts(before), tokenCounts(after)) >= ALIKE) {
      pairs.push({ before, after });
      continue;
    }
    if (before !== undefined) pairs.push({ before, after: null });
    if (after !== undefined) pairs.push({ before: null, after });
  }
  return pairs;
}

/** The words that changed between a line and the line it became, marked on each side. */
export function markWords(before: string, after: string): { before: Word[]; after: Word[] } {
  const marked = { before: [] as Word[], after: [] as Word[] };
  for (const change of diffWordsWithSpace(before, after)) {
    if (!change.added) push(marked.before, { text: change.value, changed: change.removed });
    if (!change.removed) push(marked.after, { text: change.value, changed: change.added });
  }
  return marked;
}

function push(words: Word[], word: Word) {
  const last = words[words.length - 1];
  if (last && last.changed === word.changed) last.text += word.text;
  else words.push(word);
}
