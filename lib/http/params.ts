import { AppError } from "../errors";
import type { z } from "zod";
import { parseWith } from "../validation";

/** The query string as an object, validated: unknown parameters are ignored, bad values are a 400. */
export function readQuery<T extends z.ZodType>(req: Request, schema: T): z.infer<T> {
  const params = Object.fromEntries(queryOf(req.url));
  for (const [key, value] of Object.entries(params)) {
    if (value.includes("\u0000")) throw new AppError("InvalidQuery", `field "${key}": holds a NUL character (%00); remove it`);
  }
  return parseWith(schema, params, "InvalidQuery");
}

/** The query string's parameters, without parsing the whole URL: most agent requests carry none. */
function queryOf(url: string): URLSearchParams {
  const start = url.indexOf("?");
  if (start < 0) return new URLSearchParams();
  const end = url.indexOf("#", start);
  return new URLSearchParams(url.slice(start + 1, end < 0 ? undefined : end));
}

/** True when the client already holds this exact representation. */
export function notModified(req: Request, etag: string): boolean {
  const header = req.headers.get("if-none-match");
  return header !== null && header.split(",").some((tag) => tag.trim() === etag || tag.trim() === "*");
}

/** `If-Match` as the version a change was made against: `3`, `"3"`, `"v3"`, or a version's ETag (its SHA-256). */
export function readIfMatch(req: Request): { version: number } | { sha256: string } | null {
  const header = req.headers.get("if-match");
  if (header === null) return null;
  const value = header
    .trim()
    .replace(/^W\//, "")
    .replace(/^"(.*)"$/, "$1");
  const version = /^v?(\d{1,9})$/.exec(value);
  if (version) return { version: Number(version[1]) };
  if (/^[0-9a-f]{64}$/.test(value)) return { sha256: value };
  throw new AppError("InvalidField", `If-Match must be a version ("3") or a version's ETag, not ${header}`);
}

/**
 * A page's query string, read with an operation's query schema: a page never answers 400, so a
 * value that does not parse is left out and the page shows its default.
 */
export function readSearchParams<S extends z.ZodObject>(
  schema: S,
  raw: Record<string, string | string[] | undefined>,
): Partial<z.infer<S>> {
  const values: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.shape)) {
    const value = Array.isArray(raw[key]) ? raw[key][0] : raw[key];
    if (value === undefined || value === "") continue;
    const parsed = (field as z.ZodType).safeParse(value);
    if (parsed.success && parsed.data !== undefined) values[key] = parsed.data;
  }
  return values as Partial<z.infer<S>>;
}

/** A page's query string with some parameters changed (undefined removes one), for links that keep the rest. */
export function withQuery(query: Record<string, string | string[] | undefined>, changes: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...query, ...changes })) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) params.append(key, one);
  }
  const search = params.toString();
  return search ? `?${search}` : "?";
}
