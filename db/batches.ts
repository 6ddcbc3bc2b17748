/** PostgreSQL takes at most 65,535 parameters in one statement: many rows are written in slices of this many. */
export const ROWS_PER_STATEMENT = 1000;

export function inSlices<T>(items: T[], size = ROWS_PER_STATEMENT): T[][] {
  const slices: T[][] = [];
  for (let i = 0; i < items.length; i += size) slices.push(items.slice(i, i + size));
  return slices;
}

/** A statement's worth of rows by size too: at most `ROWS_PER_STATEMENT` rows and about `maxBytes` of their payload (one larger row goes alone). */
export function inSizedSlices<T>(items: T[], bytesOf: (item: T) => number, maxBytes = 8 * 1024 * 1024): T[][] {
  const slices: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = bytesOf(item);
    if (current.length > 0 && (current.length >= ROWS_PER_STATEMENT || bytes + size > maxBytes)) {
      slices.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += size;
  }
  if (current.length > 0) slices.push(current);
  return slices;
}
