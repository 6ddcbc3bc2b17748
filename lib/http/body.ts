import { z } from "zod";
import { AppError } from "../errors";
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

/** Parses a JSON body against a zod schema; every failure is a 4xx that says what to fix. */
export async function readJson<T extends z.ZodType>(req: Request, schema: T, maxBytes = ONE_MIB): Promise<z.infer<T>> {
  requireJsonContentType(req);
  return parseJsonBytes(await readBytes(req, maxBytes), schema);
}

export function parseJsonBytes<T extends z.ZodType>(bytes: Uint8Array, schema: T): z.infer<T> {
  const textBody = decodeUtf8(bytes);
  if (textBody === null) throw new AppError("InvalidUtf8", "request body is not valid UTF-8");
  if (textBody.trim() === "") throw new AppError("InvalidJson", "request body is empty; send a JSON object");
  let value: unknown;
  try {
    value = JSON.parse(textBody);
  } catch (error) {
    throw new AppError("InvalidJson", `request body is not valid JSON: ${(error as Error).message}`);
  }
  const broken = findLoneSurrogate(value, "");
  if (broken !== null) {
    throw new AppError("InvalidUtf8", `field "${broken}" holds a lone UTF-16 surrogate (\\ud800–\\udfff); send valid Unicode`);
  }
  return parseWith(schema, value, "InvalidField");
}

/** JSON escapes can smuggle half a surrogate pair past UTF-8 validation; find one anywhere in the value. */
function findLoneSurrogate(value: unknown, path: string): string | null {
  if (typeof value === "string") return value.isWellFormed() ? null : path || "body";
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findLoneSurrogate(item, path ? `${path}.${i}` : String(i));
      if (found !== null) return found;
    }
  } else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      const found = findLoneSurrogate(item, path ? `${path}.${key}` : key);
      if (found !== null) return found;
    }
  }
  return null;
}

export function parseWith<T extends z.ZodType>(schema: T, value: unknown, code: "InvalidField" | "InvalidQuery"): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new AppError(code, describeIssue(result.error.issues[0]!));
}

/** `field "x.y": expected string, received number` and the like. */
export function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.length > 0 ? `field "${issue.path.join(".")}"` : "body";
  if (issue.code === "unrecognized_keys") {
    const base = issue.path.length > 0 ? `in "${issue.path.join(".")}" ` : "";
    return `unknown field ${base}${issue.keys.map((key) => `"${key}"`).join(", ")}; remove it`;
  }
  return `${where}: ${issue.message}`;
}
