import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { errorStatus, type ErrorCode } from "@/lib/errors";
import { useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { skillMd } from "../helpers/skills";

/**
 * Every route the OpenAPI document names, called with a catalogue of hostile inputs — path
 * values, query strings and bodies of the kinds that once broke it (issue 10). Whatever comes in,
 * the answer is never a 5xx (bar the spec's 503 NoModel, as no model is configured here), and
 * every refusal is the error envelope with a known code and that code's status.
 */

interface Operation {
  method: string;
  path: string;
}

const HOSTILE_SEGMENTS = [
  "%ff",
  "%c0%ae%c0%ae",
  "..%2F..%2Fetc",
  "%00",
  "%2e%2e",
  "Bad_Name",
  "-",
  "a".repeat(300),
  "%E4%B8%AD%E6%96%87",
  "0",
  "-1",
  "1e309",
  "99999999999999999999",
  "%20",
];

const HOSTILE_QUERIES = [
  "limit=-1",
  "limit=1e999&cursor=%00",
  "cursor=%ff%fe",
  "version=0",
  "version=abc",
  "from=1&to=99999999999",
  "from=&to=",
  "cap=0&descMax=-5&format=xml",
  "category=%00&outcome=x&since=yesterday",
  "a=1&a=2&a=3",
  `name=${"x".repeat(5000)}`,
];

const BAD_UTF8 = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]);

const HOSTILE_BODIES: { label: string; body: BodyInit; type: string }[] = [
  { label: "empty", body: "", type: "application/json" },
  { label: "not JSON", body: "{not json", type: "application/json" },
  { label: "null", body: "null", type: "application/json" },
  { label: "array", body: "[]", type: "application/json" },
  { label: "number", body: "42", type: "application/json" },
  { label: "string", body: '"text"', type: "application/json" },
  { label: "deep", body: "[".repeat(200_000) + "]".repeat(200_000), type: "application/json" },
  { label: "deep object", body: '{"a":'.repeat(5_000) + "1" + "}".repeat(5_000), type: "application/json" },
  { label: "NUL", body: '{"name":"a\\u0000b","text":"\\u0000","body":"\\u0000","action":"record-hypothesis"}', type: "application/json" },
  { label: "lone surrogate", body: '{"name":"\\ud800","description":"\\udfff"}', type: "application/json" },
  { label: "bad UTF-8", body: BAD_UTF8, type: "application/json" },
  { label: "big string", body: JSON.stringify({ description: "x".repeat(900_000) }), type: "application/json" },
  { label: "too big", body: JSON.stringify({ description: "x".repeat(1_100_000) }), type: "application/json" },
  {
    label: "wrong types",
    body: JSON.stringify({ name: 1, description: [], body: {}, status: 7, files: "x", action: 3, toVersion: "1", tier: null, skill: true }),
    type: "application/json",
  },
  {
    label: "huge numbers",
    body: '{"toVersion":1e309,"expectedVersion":-0,"version":9007199254740993,"score":1e400,"trials":1e9}',
    type: "application/json",
  },
  { label: "prototype", body: '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}', type: "application/json" },
  { label: "xml", body: "<a/>", type: "application/xml" },
  { label: "gzip junk", body: "not gzip at all", type: "application/gzip" },
  { label: "form", body: "a=1&b=2", type: "application/x-www-form-urlencoded" },
];

/** Valid path values, so bodies and queries reach past the path checks. */
const VALID: Record<string, string> = { name: "fuzz-target", slug: "fuzz-plan", id: "1", path: "references/notes.md" };

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? "x");
}

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  items?: JsonSchema;
}

/** A body that fits the schema's shape, so one hostile field at a time reaches the code behind it. */
function sample(schema: JsonSchema): Record<string, unknown> {
  const value = (property: JsonSchema): unknown => {
    if (property.enum) return property.enum[0];
    const type = Array.isArray(property.type) ? property.type[0] : property.type;
    if (type === "integer" || type === "number") return 1;
    if (type === "boolean") return false;
    if (type === "array") return [];
    if (type === "object") return {};
    return "fuzz";
  };
  return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, property]) => [key, value(property)]));
}

const HOSTILE_STRINGS = [
  "",
  " ",
  "x".repeat(100_000),
  "../../../etc/passwd",
  "<script>alert(1)</script>",
  "'; drop table teams; --",
  "%00%ff",
  "\r\n\t\u2028\u202e",
  "💥".repeat(1000),
  "H1",
  "fuzz-target",
];
const HOSTILE_NUMBERS = [-1, 0, 1.5, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e308];

function hostileValues(property: JsonSchema): unknown[] {
  const type = Array.isArray(property.type) ? property.type[0] : property.type;
  if (type === "integer" || type === "number") return [...HOSTILE_NUMBERS, "1", null];
  if (type === "array") return [HOSTILE_STRINGS, HOSTILE_NUMBERS, Array(6000).fill("a"), [[[]]], [null]];
  if (type === "object") return [{ a: HOSTILE_STRINGS }, { ["x".repeat(1000)]: 1 }, []];
  return [...HOSTILE_STRINGS, 7, null];
}

function expectContract(res: Response, text: string, what: string): void {
  expect(res.status, `${what} → ${res.status} ${text.slice(0, 200)}`).toBeLessThan(600);
  if (res.status < 400) return;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${what} → ${res.status} without the error envelope: ${text.slice(0, 200)}`);
  }
  const error = (body as { error?: { code?: unknown; message?: unknown } }).error;
  expect(Object.keys(body as object), what).toEqual(["error"]);
  expect(Object.keys(error!).sort(), what).toEqual(["code", "message"]);
  expect(typeof error!.message, what).toBe("string");
  expect(error!.code as string, what).toBeOneOf(Object.keys(errorStatus));
  expect(res.status, `${what}: ${String(error!.code)}`).toBe(errorStatus[error!.code as ErrorCode]);
  if (res.status >= 500) expect(error!.code, `${what}: ${error!.message as string}`).toBe("NoModel");
}

describe.each(testDbKinds)("hostile requests to every route on %s", (kind) => {
  const t = useTestApp(kind);
  let operations: Operation[] = [];
  /** The JSON request schema of each operation, "POST /api/v1/skills" → schema. */
  const schemas = new Map<string, JsonSchema>();
  // Every test starts with a file skill, a learned skill with an amendment, and a ledger, so that
  // valid path values reach past "not found"; the document is read once.
  beforeEach(async () => {
    await t.call("POST", "/api/v1/skills/sync", {
      json: {
        files: [
          { path: "fuzz-file/SKILL.md", content: skillMd("fuzz-file", "A file skill. Use when fuzzing.") },
          { path: "fuzz-file/references/notes.md", content: "notes" },
        ],
      },
    });
    await t.call("POST", "/api/v1/skills", {
      json: { name: "fuzz-target", description: "Target. Use when fuzzing.", body: "# Target\n", status: "active" },
    });
    await t.call("POST", "/api/v1/skills/fuzz-target/amendments", { json: { body: "# Target, amended\n", rationale: "fuzz" } });
    await t.call("POST", "/api/v1/ledger/fuzz-plan", { json: { action: "record-hypothesis", text: "h" } });
    if (operations.length > 0) return;
    const doc = (await (await t.call("GET", "/api/v1/openapi.json", { key: null })).json()) as {
      paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>>;
    };
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const schema = op.requestBody?.content?.["application/json"]?.schema;
        if (schema) schemas.set(`${method.toUpperCase()} ${path}`, schema);
      }
    }
    operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path })),
    );
  });
  let errors: MockInstance<typeof console.error>;
  beforeEach(() => {
    errors = vi.spyOn(console, "error").mockImplementation(() => {});
  });
  afterEach(() => {
    // Nothing was logged as unexpected: a refusal is a value, not a crash caught at the edge.
    expect(errors.mock.calls.map((call) => String(call[0])).filter((line) => line.includes("unexpected error"))).toEqual([]);
    vi.restoreAllMocks();
  });

  it("reads every operation of the document", () => {
    expect(operations.length).toBeGreaterThan(45);
  });

  it("never answers a 5xx, and refuses with the envelope: hostile path values", async () => {
    for (const op of operations.filter((o) => o.path.includes("{") && o.path !== "/api/mcp")) {
      for (const segment of HOSTILE_SEGMENTS) {
        const params = Object.fromEntries(Object.keys(VALID).map((key) => [key, segment]));
        const url = fill(op.path, params);
        const res = await t.call(op.method, url, op.method === "GET" ? {} : { json: {} });
        expectContract(res, await res.text(), `${op.method} ${url}`);
      }
    }
  });

  it("never answers a 5xx, and refuses with the envelope: hostile query strings", async () => {
    for (const op of operations.filter((o) => o.method === "GET" && !o.path.startsWith("/api/mcp"))) {
      for (const query of HOSTILE_QUERIES) {
        const url = `${fill(op.path, VALID)}?${query}`;
        const res = await t.call(op.method, url);
        expectContract(res, await res.text(), `GET ${url.slice(0, 120)}`);
      }
    }
  });

  it("never answers a 5xx, and refuses with the envelope: hostile bodies", async () => {
    for (const op of operations.filter((o) => o.method !== "GET" && o.path !== "/api/mcp")) {
      for (const { label, body, type } of HOSTILE_BODIES) {
        const url = fill(op.path, VALID);
        const res = await t.call(op.method, url, { body, headers: { "content-type": type } });
        expectContract(res, await res.text(), `${op.method} ${url} with ${label}`);
      }
    }
  });

  it("never answers a 5xx, and refuses with the envelope: each field of each documented body set to hostile values", async () => {
    for (const op of operations.filter((o) => o.method !== "GET" && o.path !== "/api/mcp")) {
      const schema = schemas.get(`${op.method} ${op.path}`);
      if (!schema?.properties) continue;
      const base = sample(schema);
      for (const [field, property] of Object.entries(schema.properties)) {
        for (const value of hostileValues(property)) {
          const url = fill(op.path, VALID);
          const res = await t.call(op.method, url, { json: { ...base, [field]: value } });
          expectContract(res, await res.text(), `${op.method} ${url} with ${field}=${JSON.stringify(value).slice(0, 40)}`);
        }
      }
    }
  });

  it("never answers a 5xx to the MCP endpoint, whatever is posted to it", async () => {
    for (const { label, body, type } of HOSTILE_BODIES) {
      const res = await t.call("POST", "/api/mcp", {
        body,
        headers: { "content-type": type, accept: "application/json, text/event-stream" },
      });
      expect(res.status, `POST /api/mcp with ${label}`).toBeLessThan(500);
    }
  });
});
