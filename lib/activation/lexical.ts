import { stemmer } from "stemmer";
import { showsDescription, type RenderedListing } from "../listing/render";

/**
 * The `lexical` activator (docs/evaluation-and-activation.md#activation-evals): BM25 over what the listing shows of each skill (its name and the
 * description as cut, or the name alone when the listing stripped it; dropped entries are not
 * there to match). It predicts what an agent that matches keywords, not meaning, will load.
 */

const STOPWORDS = new Set(
  "a an and are as at be but by can do for from has have how i if in into is it its me my need of on or our so that the their then there these this to up use used using was we what when where which while who why will with you your".split(
    " ",
  ),
);

export function tokens(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => !STOPWORDS.has(word)).map(stemmer);
}

export interface LexicalDocument {
  name: string;
  terms: string[];
}

/** The documents a keyword matcher sees: each listed entry, as the listing shows it. */
export function listingDocuments(listing: RenderedListing): LexicalDocument[] {
  return listing.groups.flatMap((group) =>
    group.entries
      .filter((entry) => entry.state !== "dropped")
      .map((entry) => ({
        name: entry.name,
        terms: tokens(`${entry.name.replace(/-/g, " ")} ${showsDescription(entry.state) ? entry.description : ""}`),
      })),
  );
}

const K1 = 1.2;
const B = 0.75;
/** A skill loads when it scores at least this, and at least 80% of the best match. */
export const LOAD_SCORE = 2;
const NEAR_BEST = 0.8;

export interface LexicalIndex {
  score(prompt: string): { name: string; score: number }[];
  activate(prompt: string): string[];
}

export function lexicalIndex(documents: LexicalDocument[]): LexicalIndex {
  const averageLength = documents.reduce((sum, d) => sum + d.terms.length, 0) / Math.max(1, documents.length);
  const frequencies = documents.map((d) => {
    const counts = new Map<string, number>();
    for (const term of d.terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    return { d, counts };
  });
  const documentFrequency = new Map<string, number>();
  for (const { counts } of frequencies)
    for (const term of counts.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  const idf = (term: string) => {
    const n = documentFrequency.get(term) ?? 0;
    return Math.log(1 + (documents.length - n + 0.5) / (n + 0.5));
  };
  const score = (prompt: string) => {
    const query = [...new Set(tokens(prompt))].filter((term) => documentFrequency.has(term));
    return frequencies
      .map(({ d, counts }) => {
        const s = query.reduce((sum, term) => {
          const tf = counts.get(term) ?? 0;
          if (tf === 0) return sum;
          return sum + (idf(term) * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * d.terms.length) / averageLength));
        }, 0);
        return { name: d.name, score: s };
      })
      .filter((r) => r.score > 0)
      .sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : 1));
  };
  return {
    score,
    activate(prompt) {
      const ranked = score(prompt);
      const best = ranked[0]?.score ?? 0;
      if (best < LOAD_SCORE) return [];
      return ranked.filter((r) => r.score >= NEAR_BEST * best).map((r) => r.name);
    },
  };
}
