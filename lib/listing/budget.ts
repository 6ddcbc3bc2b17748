import { codePointLength } from "../text";
import { listingHeader, showsDescription, type ListingEntry, type ListingScope, type RenderedListing } from "./render";

/** How the cap is spent, segment by segment, for the budget bar. Segments add up to the listing's length. */
export interface BudgetSegment {
  key: string;
  label: string;
  chars: number;
}

const GROUP_LABELS = { builtin: "Built-in", global: "Global", workspace: "Workspace", learned: "Learned" } as const;

export function budgetSegments(listing: RenderedListing, loadHint: string, diagnostics: string[]): BudgetSegment[] {
  const segments: BudgetSegment[] = [{ key: "header", label: "Header", chars: codePointLength(listingHeader(loadHint)) }];
  for (const group of listing.groups) {
    if (group.chars > 0) segments.push({ key: group.scope, label: GROUP_LABELS[group.scope], chars: group.chars });
  }
  const diagnosticChars = diagnostics.reduce((sum, line) => sum + codePointLength(line) + 1, 0);
  if (diagnosticChars > 0) segments.push({ key: "diagnostics", label: "Collisions", chars: diagnosticChars });
  const used = segments.reduce((sum, segment) => sum + segment.chars, 0);
  // Whatever is left is the marker line and its newline.
  if (listing.truncated) segments.push({ key: "marker", label: "Truncation marker", chars: listing.figures.chars - used });
  return segments;
}

/** An entry the cap left out: its description (`stripped`, the entry shown as `- <name>`) or the whole entry (`dropped`). */
export interface LeftOutEntry {
  scope: ListingScope;
  name: string;
  state: "stripped" | "dropped";
  /** The whole description, line breaks flattened: what the entry lost. */
  description: string;
}

/** What the cap left out (descriptions stripped, entries dropped), in the order it left them out: lowest group first, each from its end. */
export function entriesLeftOut(listing: RenderedListing, descriptions: Map<string, string>): LeftOutEntry[] {
  return [...listing.groups].reverse().flatMap((group) =>
    [...group.entries]
      .reverse()
      .filter((entry): entry is ListingEntry & { state: LeftOutEntry["state"] } => !showsDescription(entry.state))
      .map((entry) => ({
        scope: group.scope,
        name: entry.name,
        state: entry.state,
        description: wholeDescription(descriptions, entry.name),
      })),
  );
}

/** A skill's whole description as the listing would show it uncut: line breaks become spaces (the render contract). */
function wholeDescription(descriptions: Map<string, string>, name: string): string {
  return (descriptions.get(name) ?? "").replace(/\r\n|\n|\r/g, " ");
}

/** A description shortened at descMax: what the listing shows, what it lost, and whether the "Use when…" clause went with it. */
export interface ShortenedDescription {
  scope: ListingScope;
  name: string;
  shown: string;
  lost: string;
  lostUseWhen: boolean;
}

const USE_WHEN = /\buse (it )?when\b/i;

/** Every description `descMax` shortened, in listing order, with what it lost (the whole descriptions come from the catalog). */
export function shortenedDescriptions(listing: RenderedListing, descriptions: Map<string, string>): ShortenedDescription[] {
  return listing.groups.flatMap((group) =>
    group.entries
      .filter((entry) => entry.state === "cut")
      .map((entry) => {
        const whole = wholeDescription(descriptions, entry.name);
        const shown = entry.description.replace(/…$/, "");
        const lost = whole.slice(shown.length);
        return {
          scope: group.scope,
          name: entry.name,
          shown: entry.description,
          lost,
          lostUseWhen: USE_WHEN.test(lost) && !USE_WHEN.test(shown),
        };
      }),
  );
}
