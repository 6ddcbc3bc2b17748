import { z } from "zod";
import { AppError } from "../errors";
import { checkStorableText, parseWith } from "../validation";
import { decodeUtf8 } from "../text";

export const ONE_MIB = 1024 * 1024;

/** Reads the body as bytes, refusing it as soon as it passes `maxBytes` (never buffers more). */
export async function readBytes(req: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (!req.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

function tooLarge(maxBytes: number): AppError {
  const limit = maxBytes >= ONE_MIB ? `${maxBytes / ONE_MIB} MiB` : `${maxBytes} bytes`;
  return new AppError("PayloadTooLarge", `request body is larger than ${limit}; send less at a time`);
}

export function requireJsonContentType(req: Request): void {
  const type = req.headers.get("content-type");
  if (type && !/^application\/(.+\+)?json\b/i.test(type)) {
    throw new AppError("UnsupportedMediaType", `send JSON with content-type application/json (got ${type})`);
  }
}

/** A JSON body as a value, not yet checked against any schema; every failure is a 4xx that says what to fix. */
export async function readJsonValue(req: Request, maxBytes = ONE_MIB, options: { optional?: boolean } = {}): Promise<unknown> {
  requireJsonContentType(req);
  const bytes = await readBytes(req, maxBytes);
  // A body a route makes optional (a DELETE's reason) may be left out: it reads as an empty object.
  if (options.optional && bytes.byteLength === 0) return {};
  return parseJsonValue(bytes);
}

export function parseJsonBytes<T extends z.ZodType>(bytes: Uint8Array, schema: T): z.infer<T> {
  return parseWith(schema, parseJsonValue(bytes), "InvalidField");
}

/** Arrays and objects nested deeper than this are refused before parsing: no route needs more. */
const MAX_JSON_DEPTH = 64;

/** Bytes to a JSON value that PostgreSQL can store: valid UTF-8, bounded nesting, no NUL, no lone surrogate. */
export function parseJsonValue(bytes: Uint8Array): unknown {
  const textBody = decodeUtf8(bytes);
  if (textBody === null) throw new AppError("InvalidUtf8", "request body is not valid UTF-8");
  if (textBody.trim() === "") throw new AppError("InvalidJson", "request body is empty; send a JSON object");
  if (nestingDepth(textBody) > MAX_JSON_DEPTH) {
    throw new AppError("InvalidJson", `request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep; send a flatter body`);
  }
  let value: unknown;
  try {
    value = JSON.parse(textBody);
  } catch (error) {
    throw new AppError("InvalidJson", `request body is not valid JSON: ${(error as Error).message}`);
  }
  checkStorableText(value);
  return value;
}

/**
 * The deepest nesting of `[` and `{` outside strings, in one pass, counting no further than one past
 * the limit (the walk of the parsed value would overflow the stack long before JSON.parse does).
 */
function nestingDepth(json: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > MAX_JSON_DEPTH) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}
