import type { z } from "zod";
import { AppError, type ErrorCode } from "./errors";

/**
 * Every string in the value, keys included, must be text PostgreSQL can store: JSON escapes can
 * smuggle a NUL (`\u0000`) or half a surrogate pair past UTF-8 validation. The dashboard's server
 * actions check their inputs with it too. A loop over a stack, not
 * recursion, though the depth is already bounded.
 */
export function checkStorableText(root: unknown): void {
  const stack: { value: unknown; path: string }[] = [{ value: root, path: "" }];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const { value, path } = top;
    if (typeof value === "string") checkText(value, path);
    else if (value !== null && typeof value === "object") {
      const entries = Array.isArray(value) ? value.map((item, i) => [String(i), item] as const) : Object.entries(value);
      // Pushed last to first, so the first problem in the document is the one reported.
      for (const [key, item] of entries.reverse()) {
        const at = path ? `${path}.${key}` : key;
        if (!Array.isArray(value)) checkText(key, at);
        stack.push({ value: item, path: at });
      }
    }
  }
}

function checkText(value: string, path: string): void {
  const where = path ? `field "${path}"` : "body";
  if (!value.isWellFormed()) {
    throw new AppError("InvalidUtf8", `${where} holds a lone UTF-16 surrogate (\\ud800–\\udfff); send valid Unicode`);
  }
  if (value.includes("\u0000")) {
    throw new AppError("InvalidField", `${where} holds a NUL character (\\u0000), which text cannot hold; remove it`);
  }
}

/**
 * Validates with a contract's schema; the first problem becomes a 4xx. A refinement made with
 * `refuseWith` keeps its own code and message; any other problem is `code` with the field named.
 */
export function parseWith<T extends z.ZodType>(
  schema: T,
  value: unknown,
  code: "InvalidField" | "InvalidQuery" | "InvalidPath",
): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const [issue] = result.error.issues;
  if (!issue) throw new Error("zod failed a parse without reporting an issue");
  const own = issue.code === "custom" ? (issue.params as { errorCode?: ErrorCode } | undefined)?.errorCode : undefined;
  if (own) throw new AppError(own, issue.message);
  throw new AppError(code, describeIssue(issue));
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

/**
 * A refinement whose refusal carries its own error code and the domain's exact message (the spec
 * gives some of them), instead of `InvalidField` with zod's wording. `parseWith` reads the code.
 */
export function refuseWith<T>(code: ErrorCode, problem: (value: T) => string | null) {
  return (value: T, ctx: z.RefinementCtx) => {
    const message = problem(value);
    if (message !== null) ctx.addIssue({ code: "custom", message, params: { errorCode: code } });
  };
}
