/**
 * Where the production chart writes which versions went live, above their lines. Lines a few days
 * apart on a phone would print their labels over each other ("v2v3"), so labels that would touch
 * become one label for the run of versions ("v2, v3", "v2–v4"), centred over its lines. Pure: the
 * chart passes the lines' x as drawn, so the same rule holds at every width.
 */

/** A label's width per character at the chart's 12 px: a little over the widest of "v", a digit, "–". */
export const CHARACTER_WIDTH = 7;
/** Space kept between two labels. */
export const LABEL_GAP = 6;

export interface VersionLine {
  /** The line's x in the chart, in px. */
  x: number;
  /** The versions that went live that day, oldest first. */
  versions: number[];
}

export interface PlacedLabel {
  /** The label's centre, in px. */
  x: number;
  text: string;
  versions: number[];
}

/** "v2"; "v1, v2"; "v2–v4" for three or more (a run: every version between went live in between). */
export function versionsLabel(versions: readonly number[]): string {
  const first = versions[0];
  const last = versions[versions.length - 1];
  if (versions.length >= 3 && first !== undefined && last !== undefined) return `v${first}–v${last}`;
  return versions.map((version) => `v${version}`).join(", ");
}

interface Group {
  from: number;
  to: number;
  versions: number[];
}

/** A group's label, centred over its lines and kept inside [left, right]: its centre and its left and right ends. */
function boxOf(group: Group, left: number, right: number) {
  const text = versionsLabel(group.versions);
  const half = (text.length * CHARACTER_WIDTH) / 2;
  const centre = Math.min(Math.max((group.from + group.to) / 2, left + half), right - half);
  return { text, centre, start: centre - half, end: centre + half };
}

/** One label per group of lines whose labels would otherwise touch, left to right, inside [left, right]. */
export function placeVersionLabels(lines: readonly VersionLine[], { left, right }: { left: number; right: number }): PlacedLabel[] {
  const groups: Group[] = [];
  for (const line of [...lines].sort((a, b) => a.x - b.x)) {
    let group: Group = { from: line.x, to: line.x, versions: [...line.versions] };
    // Merging widens a label and moves its centre, so it may then touch the one before it too.
    for (
      let before = groups.at(-1);
      before && boxOf(before, left, right).end + LABEL_GAP > boxOf(group, left, right).start;
      before = groups.at(-1)
    ) {
      groups.pop();
      group = { from: before.from, to: group.to, versions: [...before.versions, ...group.versions] };
    }
    groups.push(group);
  }
  return groups.map((group) => {
    const box = boxOf(group, left, right);
    return { x: box.centre, text: box.text, versions: group.versions };
  });
}
