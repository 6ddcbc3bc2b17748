import { AppError } from "../errors";

/** Lists are paginated with `limit` and an opaque `cursor` (docs/api.md#pagination); `nextCursor` is null on the last page. */
export const DEFAULT_PAGE = 500;

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export function paginate<T>(all: T[], query: { limit?: number; cursor?: string }): Page<T> {
  const limit = query.limit ?? DEFAULT_PAGE;
  const offset = query.cursor === undefined ? 0 : decodeCursor(query.cursor);
  const items = all.slice(offset, offset + limit);
  const next = offset + items.length;
  return { items, nextCursor: next < all.length ? Buffer.from(`o${next}`).toString("base64url") : null };
}

function decodeCursor(cursor: string): number {
  const match = /^o(\d{1,9})$/.exec(Buffer.from(cursor, "base64url").toString());
  if (!match) throw new AppError("InvalidQuery", 'field "cursor": is not a cursor this API gave out');
  return Number(match[1]);
}

/** A cursor for lists read newest first by id: the last id of the page. */
export function idCursor(lastId: number): string {
  return Buffer.from(`i${lastId}`).toString("base64url");
}

/** The id an `idCursor` carries; a cursor this API did not give out is a 400. */
export function readIdCursor(cursor: string | undefined): number | undefined {
  if (cursor === undefined) return undefined;
  const match = /^i(\d{1,10})$/.exec(Buffer.from(cursor, "base64url").toString());
  if (!match) throw new AppError("InvalidQuery", 'field "cursor": is not a cursor this API gave out');
  return Number(match[1]);
}

/** One page of a list read newest first by id: asks for one more than the page to know whether another follows. */
export async function pageById<T extends { id: number }>(
  query: { limit?: number; cursor?: string },
  read: (filter: { beforeId?: number; limit: number }) => Promise<T[]>,
): Promise<Page<T>> {
  const limit = query.limit ?? DEFAULT_PAGE;
  const rows = await read({ beforeId: readIdCursor(query.cursor), limit: limit + 1 });
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? idCursor(last.id) : null };
}
