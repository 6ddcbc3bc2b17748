import type { LeftOutEntry, ShortenedDescription } from "./budget";

/**
 * Everything the listing cut, whole, as CSV (RFC 4180): the budget page shows 50 of each list,
 * the download all of them. One row per entry — entries dropped and descriptions stripped in the
 * order the cap cut them, then descriptions descMax shortened in listing order — with what it lost.
 */
export function cutCsv(lists: { dropped: LeftOutEntry[]; stripped: LeftOutEntry[]; shortened: ShortenedDescription[] }): string {
  const rows = [
    ["name", "group", "state", "lost"],
    ...[...lists.dropped, ...lists.stripped].map((entry) => [entry.name, entry.scope, entry.state, entry.description]),
    ...lists.shortened.map((entry) => [entry.name, entry.scope, "cut", entry.lost]),
  ];
  return rows.map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n";
}

/** Quoted when it must be; a cell a spreadsheet would run as a formula (=, +, -, @ first) gets a leading `'` (OWASP's advice). */
function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
