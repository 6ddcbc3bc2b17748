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
