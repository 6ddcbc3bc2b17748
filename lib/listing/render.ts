import { codePointLength, codePointPrefix } from "../text";

/**
 * The listing render contract (SPEC §3), as a pure function: the text an agent puts in its
 * system prompt, never over the cap while the header and diagnostics fit, and never silent
 * about what it left out.
 */

export const LISTING_SCOPES = ["builtin", "global", "workspace", "learned"] as const;
export type ListingScope = (typeof LISTING_SCOPES)[number];

export const GROUP_HEADINGS: Record<ListingScope, string> = {
  builtin: "## Built-in",
  global: "## Global directory skills",
  workspace: "## Workspace directory skills",
  learned: "## Learned",
};

export interface ListingSkill {
  name: string;
  scope: ListingScope;
  description: string;
}

export interface ListingSettings {
  cap: number;
  descMax: number;
  loadHint: string;
}

export type EntryState = "full" | "stripped" | "dropped";

export interface ListingEntry {
  name: string;
  /** The description as the listing shows it: line breaks flattened, cut at descMax. */
  description: string;
  state: EntryState;
}

export interface ListingGroup {
  scope: ListingScope;
  heading: string;
  entries: ListingEntry[];
  /** Characters this group takes in the text, its heading and newlines included. */
  chars: number;
}

export interface ListingFigures {
  total: number;
  shown: number;
  droppedDescriptions: number;
  droppedEntries: number;
  chars: number;
  cap: number;
}

export interface RenderedListing {
  text: string;
  figures: ListingFigures;
  groups: ListingGroup[];
  truncated: boolean;
}

export function listingHeader(loadHint: string): string {
  return `[skills listing — prefer a matching skill over improvising; load bodies with ${loadHint}]`;
}

export function truncationMarker(shown: number, total: number, droppedDescriptions: number, droppedEntries: number) {
  return (
    `[skills listing truncated: showed ${shown} of ${total} skills; ` +
    `dropped ${droppedDescriptions} descriptions and ${droppedEntries} entries — call skill_list for the full catalog]`
  );
}

/** Line breaks become spaces, then anything past descMax code points is cut and gets `…`. */
export function listingDescription(description: string, descMax: number): string {
  const flat = description.replace(/\r\n|\n|\r/g, " ");
  return codePointLength(flat) > descMax ? `${codePointPrefix(flat, descMax)}…` : flat;
}

/** Orders strings by Unicode code point, which is UTF-8 byte order. */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

// Surrogates encode code points above U+FFFF, so they rank above U+E000–U+FFFF.
function codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}

interface WorkEntry extends ListingEntry {
  group: number;
  nameChars: number;
  descriptionChars: number;
}

export function renderListing(skills: ListingSkill[], diagnostics: string[], settings: ListingSettings): RenderedListing {
  const header = listingHeader(settings.loadHint);
  const groups = LISTING_SCOPES.map((scope) =>
    skills
      .filter((skill) => skill.scope === scope)
      .sort((a, b) => compareCodePoints(a.name, b.name))
      .map((skill): WorkEntry => {
        const description = listingDescription(skill.description, settings.descMax);
        return {
          name: skill.name,
          description,
          state: "full",
          group: LISTING_SCOPES.indexOf(scope),
          nameChars: codePointLength(skill.name),
          descriptionChars: codePointLength(description),
        };
      }),
  );
  const entries = groups.flat();
  const total = entries.length;

  // Length of the block without the marker: every line plus one newline between lines.
  const lineLengths = [
    codePointLength(header),
    ...groups.flatMap((group, g) =>
      group.length === 0 ? [] : [codePointLength(GROUP_HEADINGS[LISTING_SCOPES[g]!]), ...group.map(fullLineLength)],
    ),
    ...diagnostics.map(codePointLength),
  ];
  let length = lineLengths.reduce((sum, n) => sum + n, 0) + lineLengths.length - 1;
  let stripped = 0;
  let dropped = 0;
  const withMarker = () =>
    length + 1 + codePointLength(truncationMarker(total - dropped, total, stripped, dropped));
  const fits = () => (stripped === 0 && dropped === 0 ? length : withMarker()) <= settings.cap;

  // Lowest precedence first, and from the end of each group backwards.
  const cutOrder = [...entries].reverse();
  for (const entry of cutOrder) {
    if (fits()) break;
    entry.state = "stripped";
    length -= 2 + entry.descriptionChars;
    stripped++;
  }
  const remaining = groups.map((group) => group.length);
  for (const entry of cutOrder) {
    if (fits()) break;
    entry.state = "dropped";
    length -= 2 + entry.nameChars + 1;
    stripped--;
    dropped++;
    if (--remaining[entry.group]! === 0) {
      length -= codePointLength(GROUP_HEADINGS[LISTING_SCOPES[entry.group]!]) + 1;
    }
  }

  const truncated = stripped > 0 || dropped > 0;
  const lines = [header];
  const shownGroups: ListingGroup[] = [];
  groups.forEach((group, g) => {
    const scope = LISTING_SCOPES[g]!;
    const shownLines = group.filter((entry) => entry.state !== "dropped").map(entryLine);
    const chars = shownLines.length === 0 ? 0 : sumLines([GROUP_HEADINGS[scope], ...shownLines]) + 1;
    if (shownLines.length > 0) lines.push(GROUP_HEADINGS[scope], ...shownLines);
    shownGroups.push({
      scope,
      heading: GROUP_HEADINGS[scope],
      chars,
      entries: group.map(({ name, description, state }) => ({ name, description, state })),
    });
  });
  lines.push(...diagnostics);
  if (truncated) lines.push(truncationMarker(total - dropped, total, stripped, dropped));
  const text = lines.join("\n");
  return {
    text,
    truncated,
    groups: shownGroups,
    figures: {
      total,
      shown: total - dropped,
      droppedDescriptions: stripped,
      droppedEntries: dropped,
      chars: codePointLength(text),
      cap: settings.cap,
    },
  };
}

function fullLineLength(entry: WorkEntry): number {
  return 2 + entry.nameChars + 2 + entry.descriptionChars;
}

function entryLine(entry: ListingEntry): string {
  return entry.state === "full" ? `- ${entry.name}: ${entry.description}` : `- ${entry.name}`;
}

/** Characters of lines joined by newlines. */
function sumLines(lines: string[]): number {
  return lines.reduce((sum, line) => sum + codePointLength(line), 0) + lines.length - 1;
}
