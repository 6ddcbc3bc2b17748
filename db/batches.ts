/** PostgreSQL takes at most 65,535 parameters in one statement: many rows are written in slices of this many. */
export const ROWS_PER_STATEMENT = 1000;

export function inSlices<T>(items: T[], size = ROWS_PER_STATEMENT): T[][] {
  const slices: T[][] = [];
  for (let i = 0; i < items.length; i += size) slices.push(items.slice(i, i + size));
  return slices;
}
