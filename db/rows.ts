/**
 * The row of a statement that must touch exactly one: an insert of one value or an upsert with
 * `returning`, an update by primary key, a lookup by unique key of a row just made sure of.
 * Any other count is a bug, not a user error.
 */
export function singleRow<T>(rows: T[]): T {
  const [row] = rows;
  if (rows.length !== 1 || row === undefined) throw new Error(`expected exactly one row, got ${rows.length}`);
  return row;
}

/**
 * The rows of a raw statement (`db.execute(sql…)`), typed as the statement selects them: every
 * driver answers `{ rows }`, but drizzle types a raw statement's result as unknown, so a row's
 * shape is said once per statement, here rather than in a cast.
 */
export function rowsOf<T>(result: unknown): T[] {
  const rows = (result as { rows?: unknown }).rows;
  if (!Array.isArray(rows)) throw new Error("a raw statement's result has no rows");
  return rows as T[];
}
