/** The `p`th percentile of `sorted` (ascending): the value below which `p` in a hundred fall. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}
