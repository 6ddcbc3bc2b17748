import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { OPERATIONS } from "@/lib/contracts";
import { observationBody } from "@/lib/contracts/evolution";
import { openApiDocument } from "@/lib/contracts/openapi";
import { createSkillBody, updateSkillBody } from "@/lib/contracts/learned";
import { toolList } from "@/lib/mcp/tools";
import { operationFor } from "../helpers/contract-check";

/**
 * The contracts (lib/contracts) are the one definition of every operation: this checks that each
 * route file's methods have one, that each has one route, and that the document generated from
 * them says what a client needs (ids, typed parameters, response schemas, servers).
 */

/** Every `METHOD /path` the route files export, with a sample path that reaches them. */
function routeFileMethods(): { method: string; sample: string }[] {
  const found: { method: string; sample: string }[] = [];
  const walk = (dir: string, segments: string[]) => {
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) walk(full, [...segments, entry]);
      else if (entry === "route.ts") {
        // Auth.js's routes are its own; the optional catch-all only answers 404 for paths no route has;
        // OTLP's routes follow the OTLP specification (tests/integration/otlp-receiver.test.ts), and
        // OAuth's the OAuth RFCs, described by their own metadata (tests/integration/oauth.test.ts).
        if (segments[0] === "auth" || segments[0] === "otlp" || segments[0] === "oauth" || segments.some((s) => s.startsWith("[[...")))
          continue;
        const sample = `/api/${segments.map((s) => (s.startsWith("[...") ? "index.json" : s.startsWith("[") ? "x" : s)).join("/")}`;
        const source = readFileSync(full, "utf8");
        for (const method of source.matchAll(/export (?:const|async function) (GET|POST|PUT|PATCH|DELETE)\b/g))
          found.push({ method: method[1]!, sample });
      }
    }
  };
  walk(path.resolve("app/api"), []);
  return found;
}

describe("the contracts", () => {
  it("give every method of every route file an operation, and every operation a route", () => {
    const files = routeFileMethods();
    expect(files.length).toBeGreaterThan(45);
    const reached = new Set<string>();
    for (const { method, sample } of files) {
      const operation = operationFor(method, sample);
      expect(operation, `${method} ${sample}`).toBeTypeOf("object");
      reached.add((operation as { operationId: string }).operationId);
    }
    // The files under /files/ and /.well-known/ are reached with deeper paths than the sample.
    reached.add("getSkillFile");
    reached.add("skillsIndexFile");
    reached.add("installLinkFile");
    expect([...reached].sort()).toEqual(OPERATIONS.map((operation) => operation.operationId).sort());
  });

  it("name each operation once, with a path and method no other operation has", () => {
    const ids = OPERATIONS.map((operation) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const routes = OPERATIONS.map((operation) => `${operation.method} ${operation.path}`);
    expect(new Set(routes).size).toBe(routes.length);
  });
});

describe("the OpenAPI document", () => {
  const doc = openApiDocument("https://skillgate.example") as unknown as {
    openapi: string;
    servers: { url: string }[];
    paths: Record<string, Record<string, Record<string, unknown>>>;
  };
  const operations = Object.values(doc.paths).flatMap((methods) => Object.values(methods));

  it("is OpenAPI 3.1 with this deployment as its server and every operation", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers).toEqual([{ url: "https://skillgate.example", description: "this deployment" }]);
    expect(operations.map((operation) => operation.operationId).sort()).toEqual(
      OPERATIONS.map((operation) => operation.operationId).sort(),
    );
    expect(Object.keys(doc.paths)).toContain("/.well-known/skills/index.json");
    expect(Object.keys(doc.paths)).toContain("/api/mcp");
    expect(Object.keys(doc.paths)).toContain("/i/{token}/.well-known/skills/index.json");
    expect(Object.keys(doc.paths).some((p) => p.includes("skills-index") || p.includes("install-link/"))).toBe(false);
  });

  it("types the query parameters: integers with bounds, enums", () => {
    const listing = doc.paths["/api/v1/listing"]!.get! as { parameters: { name: string; schema: Record<string, unknown> }[] };
    expect(listing.parameters).toEqual([
      {
        name: "cap",
        in: "query",
        required: false,
        description: "what-if cap in characters; the team's setting when omitted",
        schema: { type: "integer", minimum: 1, maximum: 1_000_000 },
      },
      {
        name: "descMax",
        in: "query",
        required: false,
        description: "what-if description cut in characters; the team's setting when omitted",
        schema: { type: "integer", minimum: 1, maximum: 1024 },
      },
      {
        name: "format",
        in: "query",
        required: false,
        description: "text (default) or json",
        schema: { type: "string", enum: ["text", "json"] },
      },
      {
        name: "full",
        in: "query",
        required: false,
        description: "true: the full catalog, every description whole, no cap (what skill_list answers)",
        schema: { type: "string", enum: ["true", "false"] },
      },
      {
        name: "label",
        in: "query",
        required: false,
        description: "list, for every learned skill, the version with this label and its description, or the default where it has none",
        schema: {
          type: "string",
          pattern: "^[a-z0-9]+(-[a-z0-9]+)*$",
          minLength: 1,
          maxLength: 64,
          example: "staging",
        },
      },
    ]);
    const view = doc.paths["/api/v1/skills/{name}"]!.get! as {
      parameters: { name: string; in: string; schema: Record<string, unknown> }[];
    };
    expect(view.parameters[0]).toMatchObject({
      name: "name",
      in: "path",
      required: true,
      schema: { type: "string", pattern: "^[a-z0-9]+(-[a-z0-9]+)*$", maxLength: 64 },
    });
  });

  it("lists every content type a file is sent with, by extension, on each file route, and says how to send a nested path", () => {
    const text = (type: string, description: string) => ({ schema: { type: "string", contentMediaType: type, description } });
    const expected = {
      "text/markdown; charset=utf-8": text("text/markdown; charset=utf-8", "a file ending .md"),
      "text/plain; charset=utf-8": text("text/plain; charset=utf-8", "a file ending .txt or .ts"),
      "text/x-shellscript; charset=utf-8": text("text/x-shellscript; charset=utf-8", "a file ending .sh"),
      "text/x-python; charset=utf-8": text("text/x-python; charset=utf-8", "a file ending .py"),
      "text/javascript; charset=utf-8": text("text/javascript; charset=utf-8", "a file ending .js"),
      "application/json": { schema: { description: "a file ending .json" } },
      "text/yaml; charset=utf-8": text("text/yaml; charset=utf-8", "a file ending .yaml or .yml"),
      "application/pdf": text("application/pdf", "a file ending .pdf"),
      "image/png": text("image/png", "a file ending .png"),
      "image/svg+xml": text("image/svg+xml", "a file ending .svg"),
      "application/octet-stream": text("application/octet-stream", "a file with any other extension, or none"),
    };
    const encoding =
      "its `/` may be sent as-is (scripts/run.py) or percent-encoded (scripts%2Frun.py, as OpenAPI clients send a path parameter): both answer the same file";
    for (const [path, parameter, description] of [
      ["/api/v1/skills/{name}/files/{path}", "path", `the file's path inside the skill folder, e.g. references/forms.md; ${encoding}`],
      ["/.well-known/skills/{name}/{file}", "file", `SKILL.md, or a supporting file's path; ${encoding}`],
      ["/i/{token}/.well-known/skills/{name}/{file}", "file", `SKILL.md, or a supporting file's path; ${encoding}`],
    ] as const) {
      const get = doc.paths[path]!.get! as {
        parameters: Record<string, unknown>[];
        responses: Record<string, { content?: Record<string, unknown> }>;
      };
      expect(get.responses["200"]!.content, path).toEqual(expected);
      expect(get.parameters.find((p) => p.name === parameter)).toEqual({
        name: parameter,
        in: "path",
        required: true,
        description,
        schema: { type: "string" },
      });
    }
  });

  it("documents the rate-limit headers on every answer of every keyed operation but the 401, and only there", () => {
    const rateLimit = {
      "X-RateLimit-Limit": {
        description:
          "requests a window of one minute admits for this API key or install link; sent on every answer to a request that was counted (not when the deployment sets no limit)",
        schema: { type: "integer" },
      },
      "X-RateLimit-Remaining": {
        description:
          "requests the window still admits after this one, never below 0, and 0 on a 429; exact with one instance, approximate with several (each claims its share in chunks)",
        schema: { type: "integer" },
      },
      "X-RateLimit-Reset": {
        description:
          "seconds until the window ends and the whole limit is admitted again (a delay, as the IETF drafts' RateLimit-Reset, not a time); on a 429, the same as Retry-After",
        schema: { type: "integer" },
      },
    };
    const file = doc.paths["/api/v1/skills/{name}/files/{path}"]!.get! as { responses: Record<string, { headers?: object }> };
    expect(file.responses["200"]!.headers).toEqual({
      "X-Skillgate-Stale": {
        description:
          "sent only while the database is unavailable: this answer is what this instance last read, this many seconds ago (at most 24 hours)",
        schema: { type: "integer" },
      },
      ...rateLimit,
    });
    expect(file.responses["429"]!.headers).toEqual({
      "Retry-After": { description: "seconds to wait", schema: { type: "integer" } },
      ...rateLimit,
    });
    expect(file.responses["401"]!.headers).toBeUndefined();
    let keyed = 0;
    for (const operation of operations) {
      const responses = operation.responses as Record<string, { headers?: Record<string, unknown> }>;
      const byKeyOrLink = (operation.security as unknown[]).length > 0 || String(operation.operationId).startsWith("installLink");
      if (byKeyOrLink) keyed++;
      for (const [status, response] of Object.entries(responses)) {
        const names = Object.keys(response.headers ?? {}).filter((name) => name.startsWith("X-RateLimit-"));
        const want = byKeyOrLink && status !== "401" ? Object.keys(rateLimit) : [];
        expect(names, `${String(operation.operationId)} ${status}`).toEqual(want);
      }
    }
    // Every operation but health, live and this document is keyed.
    expect(keyed).toBe(operations.length - 3);
  });

  it("documents both forms of a body that takes one item or a batch", () => {
    const observations = doc.paths["/api/v1/observations"]!.post! as {
      requestBody: { content: { "application/json": { schema: { anyOf: { properties: Record<string, unknown> }[] } } } };
    };
    const forms = observations.requestBody.content["application/json"].schema.anyOf;
    expect(forms.map((form) => Object.keys(form.properties).includes("observations"))).toEqual([false, true]);
    const views = doc.paths["/api/v1/usage/views"]!.post! as { requestBody?: unknown };
    expect(views.requestBody).toBeDefined();
  });

  it("gives every success a content schema, text ones included, and every error its codes", () => {
    const view = doc.paths["/api/v1/skills/{name}"]!.get! as { responses: Record<string, { content?: Record<string, unknown> }> };
    expect(Object.keys(view.responses["200"]!.content!)).toEqual(["text/plain"]);
    expect(view.responses["404"]!.content!["application/json"]).toMatchObject({
      schema: {
        properties: { error: { properties: { code: { type: "string", enum: ["LabelNotFound", "SkillNotFound", "VersionNotFound"] } } } },
      },
    });
    const listing = doc.paths["/api/v1/listing"]!.get! as { responses: Record<string, { content?: Record<string, unknown> }> };
    expect(Object.keys(listing.responses["200"]!.content!)).toEqual(["text/plain", "application/json"]);
    for (const operation of operations) {
      const responses = operation.responses as Record<string, { content?: Record<string, { schema?: unknown }> }>;
      for (const [status, response] of Object.entries(responses)) {
        if (status === "304" || status === "202" || operation.operationId === "mcpEnd") continue;
        expect(response.content, `${String(operation.operationId)} ${status}`).toBeDefined();
        for (const media of Object.values(response.content!))
          expect(media.schema, `${String(operation.operationId)} ${status}`).toBeDefined();
      }
      // An operation behind a key documents the refusal of a missing or revoked one.
      if ((operation.security as unknown[]).length > 0) expect(Object.keys(responses), String(operation.operationId)).toContain("401");
    }
  });
});

describe("one definition per field", () => {
  const doc = openApiDocument("/") as unknown as {
    paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { properties?: object } }> } }>>;
  };
  const bodyFields = (path: string, method: string) =>
    Object.keys(doc.paths[path]![method]!.requestBody!.content["application/json"]!.schema.properties ?? {});
  const toolFields = (name: string) => Object.keys((toolList().find((tool) => tool.name === name)!.inputSchema.properties ?? {}) as object);

  it("gives MCP every field of the REST bodies its tools mirror, as the OpenAPI document does", () => {
    const create = bodyFields("/api/v1/skills", "post");
    const update = bodyFields("/api/v1/skills/{name}", "put");
    expect(create).toEqual(Object.keys(createSkillBody.shape));
    expect(update).toEqual(Object.keys(updateSkillBody.shape));
    // The MCP session is the agent session: the one create field the tool leaves out.
    expect(new Set(toolFields("skill_manage"))).toEqual(new Set(["action", ...create.filter((field) => field !== "sessionId"), ...update]));
    expect(toolFields("experiment")).toEqual(["slug", ...bodyFields("/api/v1/ledger/{slug}", "post")]);
    expect(toolFields("record_observation")).toEqual(Object.keys(observationBody.shape));
  });
});
