/** A rate as the dashboard shows it: a whole percentage, or a dash when there is nothing to count. */
export function percent(rate: number | null | undefined): string {
  return rate === null || rate === undefined ? "—" : `${Math.round(rate * 100)}%`;
}
