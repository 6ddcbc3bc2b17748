import { codePointLength, codePointPrefix } from "../text";

/**
 * The listing render contract (docs/skills-and-listing.md#the-listing), as a pure function: the text an agent puts in its
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
  /** The version listed and why (docs/learned-skills.md#one-served-version), carried to the JSON form's entries; the text does not say it. */
  served?: ListedVersion;
}

/** The version of a listed skill and why it is that one (lib/skills/catalog.ts `Served`). */
export interface ListedVersion {
  version: number;
  why: string;
  label?: string;
}

export interface ListingSettings {
  cap: number;
  descMax: number;
  loadHint: string;
}

/**
 * An entry's state, as the API names it (docs/skills-and-listing.md#entry-states): `full`, the whole description; `cut`, the description
 * shortened at descMax; `stripped`, the description dropped by the cap; `dropped`, the entry dropped
 * by the cap. The figures count the last two as droppedDescriptions and droppedEntries.
 */
export type EntryState = "full" | "cut" | "stripped" | "dropped";

/** Whether the listing shows the entry's description (whole or cut). */
export function showsDescription(state: EntryState): boolean {
  return state === "full" || state === "cut";
}

export interface ListingEntry {
  name: string;
  /** The description as the listing shows it: line breaks flattened, cut at descMax. */
  description: string;
  state: EntryState;
  served?: ListedVersion;
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

const HAS_SURROGATE = /[\uD800-\uDFFF]/;

/** The listed description and its length in code points, counting only where surrogates force it. */
function shortenDescription(description: string, descMax: number): { text: string; chars: number; shortened: boolean } {
  const flat = description.includes("\n") || description.includes("\r") ? description.replace(/\r\n|\n|\r/g, " ") : description;
  if (!HAS_SURROGATE.test(flat)) {
    return flat.length > descMax
      ? { text: `${flat.slice(0, descMax)}…`, chars: descMax + 1, shortened: true }
      : { text: flat, chars: flat.length, shortened: false };
  }
  const prefix = codePointPrefix(flat, descMax);
  if (prefix.length === flat.length) return { text: flat, chars: codePointLength(flat), shortened: false };
  return { text: `${prefix}…`, chars: descMax + 1, shortened: true };
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

/** Code points of a string, skipping the count when there is no surrogate pair to find. */
function charsOf(text: string): number {
  return HAS_SURROGATE.test(text) ? codePointLength(text) : text.length;
}

// Below U+D800, UTF-16 order is code point order, and the engine's own comparison is the fast one.
const ABOVE_BMP_ORDER = /[\uD800-\uFFFF]/;
const nativeOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function sortByName(list: ListingSkill[]): ListingSkill[] {
  const compare = list.some((skill) => ABOVE_BMP_ORDER.test(skill.name)) ? compareCodePoints : nativeOrder;
  let previous: ListingSkill | undefined;
  for (const skill of list) {
    if (previous && compare(previous.name, skill.name) > 0) return list.sort((a, b) => compare(a.name, b.name));
    previous = skill;
  }
  return list;
}

// The marker's length without its four numbers; the numbers are plain ASCII digits.
const MARKER_CHARS = codePointLength(truncationMarker(0, 0, 0, 0)) - 4;
const digits = (n: number) => (n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : n < 10_000 ? 4 : n < 100_000 ? 5 : String(n).length);

type WorkGroup = { scope: ListingScope; headingChars: number; remaining: number; entries: WorkEntry[] };

export function renderListing(skills: ListingSkill[], diagnostics: string[], settings: ListingSettings): RenderedListing {
  const header = listingHeader(settings.loadHint);
  const groups = groupEntries(skills, settings.descMax);
  const total = skills.length;
  const { droppedDescriptions, droppedEntries } = fitToCap(groups, header, diagnostics, total, settings.cap);
  const truncated = droppedDescriptions > 0 || droppedEntries > 0;
  const lines = [header];
  const shownGroups: ListingGroup[] = groups.map(({ scope, headingChars, entries }) => {
    let chars = 0;
    for (const entry of entries) {
      if (entry.state === "dropped") continue;
      if (chars === 0) {
        lines.push(GROUP_HEADINGS[scope]);
        chars = headingChars + 1;
      }
      const described = showsDescription(entry.state);
      lines.push(described ? `- ${entry.name}: ${entry.description}` : `- ${entry.name}`);
      chars += 3 + entry.nameChars + (described ? 2 + entry.descriptionChars : 0);
    }
    return { scope, heading: GROUP_HEADINGS[scope], chars, entries };
  });
  lines.push(...diagnostics);
  if (truncated) lines.push(truncationMarker(total - droppedEntries, total, droppedDescriptions, droppedEntries));
  const text = lines.join("\n");
  return {
    text,
    truncated,
    groups: shownGroups,
    figures: {
      total,
      shown: total - droppedEntries,
      droppedDescriptions,
      droppedEntries,
      chars: codePointLength(text),
      cap: settings.cap,
    },
  };
}

/** The skills by group in listing order, each description shortened at descMax. */
function groupEntries(skills: ListingSkill[], descMax: number): WorkGroup[] {
  const buckets: Record<ListingScope, ListingSkill[]> = { builtin: [], global: [], workspace: [], learned: [] };
  for (const skill of skills) buckets[skill.scope].push(skill);
  return LISTING_SCOPES.map((scope, group) => ({
    scope,
    headingChars: GROUP_HEADINGS[scope].length,
    // Entries not dropped: the heading goes with the last of them.
    remaining: buckets[scope].length,
    entries: sortByName(buckets[scope]).map((skill): WorkEntry => {
      const { text, chars, shortened } = shortenDescription(skill.description, descMax);
      const state: EntryState = shortened ? "cut" : "full";
      const entry = { name: skill.name, description: text, state, group, nameChars: charsOf(skill.name), descriptionChars: chars };
      return skill.served ? { ...entry, served: skill.served } : entry;
    }),
  }));
}

/**
 * Drops descriptions, then entries, until the block and its marker fit the cap (docs/skills-and-listing.md#truncation): lowest
 * precedence first, from the end of each group backwards. Marks each entry's state and says how
 * many of each it dropped.
 */
function fitToCap(groups: WorkGroup[], header: string, diagnostics: string[], total: number, cap: number) {
  // Length of the block without the marker: every line plus one newline between lines.
  let lineCount = 1 + diagnostics.length;
  let length = charsOf(header) + diagnostics.reduce((sum, line) => sum + charsOf(line), 0);
  for (const { headingChars, entries } of groups) {
    if (entries.length === 0) continue;
    lineCount += 1 + entries.length;
    length += headingChars;
    for (const entry of entries) length += 4 + entry.nameChars + entry.descriptionChars;
  }
  length += lineCount - 1;
  let droppedDescriptions = 0;
  let droppedEntries = 0;
  const fits = () => {
    if (droppedDescriptions === 0 && droppedEntries === 0) return length <= cap;
    const marker = MARKER_CHARS + digits(total - droppedEntries) + digits(total) + digits(droppedDescriptions) + digits(droppedEntries);
    return length + 1 + marker <= cap;
  };
  if (fits()) return { droppedDescriptions, droppedEntries };
  const capOrder = groups.flatMap((group) => group.entries.map((entry) => ({ group, entry }))).reverse();
  for (const { entry } of capOrder) {
    if (fits()) break;
    entry.state = "stripped";
    length -= 2 + entry.descriptionChars;
    droppedDescriptions++;
  }
  for (const { group, entry } of capOrder) {
    if (fits()) break;
    entry.state = "dropped";
    length -= 2 + entry.nameChars + 1;
    droppedDescriptions--;
    droppedEntries++;
    if (--group.remaining === 0) length -= group.headingChars + 1;
  }
  return { droppedDescriptions, droppedEntries };
}
