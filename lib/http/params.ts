import type { z } from "zod";
import { parseWith } from "./body";

/** The query string as an object, validated: unknown parameters are ignored, bad values are a 400. */
export function readQuery<T extends z.ZodType>(req: Request, schema: T): z.infer<T> {
  const params = Object.fromEntries(new URL(req.url).searchParams.entries());
  return parseWith(schema, params, "InvalidQuery");
}

/** True when the client already holds this exact representation. */
export function notModified(req: Request, etag: string): boolean {
  const header = req.headers.get("if-none-match");
  return header !== null && header.split(",").some((tag) => tag.trim() === etag || tag.trim() === "*");
}
