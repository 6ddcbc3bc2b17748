import { AppError } from "../errors";

/** Lists are paginated with `limit` and an opaque `cursor` (§11); `nextCursor` is null on the last page. */
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
