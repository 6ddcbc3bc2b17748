import { codePointLength } from "../text";
import { listingHeader, type RenderedListing } from "./render";

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

/** What the listing left out, in the order it was cut: lowest group first, each from its end. */
export function cutEntries(listing: RenderedListing) {
  return [...listing.groups].reverse().flatMap((group) =>
    [...group.entries]
      .reverse()
      .filter((entry) => entry.state !== "full")
      .map((entry) => ({ scope: group.scope, name: entry.name, state: entry.state, description: entry.description })),
  );
}
