import { APICallError } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { count, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { amendments, skillEvents } from "@/db/schema";
import { errorOf, useTestApp, type TestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { mockAnswer } from "../helpers/judge";
import { waitUntil } from "../helpers/wait";

/** A provider that refuses every call, with the kind of detail providers put in their errors. */
const SECRET = "sk-live-4f9a1c0ffee";
function refusingModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    modelId: "refusing",
    doGenerate: async () => {
      throw new APICallError({
        message: `Incorrect API key provided: ${SECRET}. You can find your API key at https://platform.example/account/api-keys.`,
        url: "https://api.example/v1/chat/completions?org=acme-internal",
        requestBodyValues: {},
        statusCode: 401,
        responseBody: `{"error":{"message":"Incorrect API key provided: ${SECRET}"}}`,
        isRetryable: false,
      });
    },
  });
}

describe.each(testDbKinds)("failures of the model provider on %s", (kind) => {
  const t = useTestApp(kind, { model: { model: refusingModel(), id: "mock:refusing" } });
  // Every test starts with a skill and one failure recorded against it.
  beforeEach(async () => {
    await t.call("POST", "/api/v1/skills", {
      json: { name: "guide", description: "Guides. Use when guiding.", body: "# Guide\n", status: "active" },
    });
    await t.call("POST", "/api/v1/observations", { json: { skill: "guide", task: "guide someone", category: "c", outcome: "failure" } });
  });

  it("stores and answers a stable message for a case the judge could not judge; the provider's text goes to the log only", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const amendment = await (
      await t.call("POST", "/api/v1/skills/guide/amendments", { json: { body: "# Guide, better\n", rationale: "clearer" } })
    ).json();
    const evaluated = await t.call("POST", `/api/v1/amendments/${amendment.id}/evaluate`);
    expect(evaluated.status).toBe(200);
    const report = await evaluated.json();
    const stored = await (await t.call("GET", `/api/v1/evaluations/${report.id}`)).text();
    for (const text of [JSON.stringify(report), stored]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain("api.example");
    }
    expect(JSON.parse(stored).cases).toEqual([
      expect.objectContaining({
        status: "failed-to-judge",
        error: "the model provider refused the credentials (HTTP 401); check the provider's API key",
      }),
    ]);
    expect(errors.mock.calls.some((call) => String(call[0]).includes("Incorrect API key provided"))).toBe(true);
    vi.restoreAllMocks();
  });

  it("answers a generation the provider refused with the same stable message, and writes nothing", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await t.call("POST", "/api/v1/skills/guide/amendments/generate");
    expect(res.status).toBe(502);
    const text = await res.text();
    expect(text).not.toContain(SECRET);
    expect(JSON.parse(text).error).toEqual({
      code: "ModelFailed",
      message: "the model provider refused the credentials (HTTP 401); check the provider's API key",
    });
    expect(await writtenFor(t)).toEqual({ amendments: 0, amendedEvents: 0 });
    expect(errors.mock.calls.some((call) => String(call[0]).includes("Incorrect API key provided"))).toBe(true);
    vi.restoreAllMocks();
  });

  it("stores a stable message for an activation run the model could not run", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const started = await t.call("POST", "/api/v1/evals/runs", {
      json: { promptSet: { name: "failing", cases: [{ id: "D1", prompt: "guide me", expected: ["guide"] }] }, activator: "model" },
    });
    expect(started.status).toBe(201);
    const { id } = await started.json();
    const run = await waitUntil(
      async (): Promise<{ status: string; error: string | null }> => (await t.call("GET", `/api/v1/evals/runs/${id}`)).json(),
      (report) => report.status !== "running",
      { what: `run #${id} to end` },
    );
    expect(run).toMatchObject({
      status: "failed",
      error: "the model provider refused the credentials (HTTP 401); check the provider's API key",
    });
    expect(JSON.stringify(run)).not.toContain(SECRET);
    vi.restoreAllMocks();
  });
});

/** What a generation would have written: amendment rows and the "amended" events that go with them. */
async function writtenFor(t: TestApp): Promise<{ amendments: number; amendedEvents: number }> {
  const [rows] = await t.app.db.select({ n: count() }).from(amendments);
  const [events] = await t.app.db.select({ n: count() }).from(skillEvents).where(eq(skillEvents.kind, "amended"));
  return { amendments: rows?.n ?? 0, amendedEvents: events?.n ?? 0 };
}

/**
 * A model that writes amendments the way a test says: an answer that does not fit the proposal's
 * schema, or none at all until its call is aborted (a provider that hangs).
 */
const generator = { answer: "hang" as "hang" | string, aborted: 0 };
function generatingModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    modelId: "generator",
    doGenerate: async ({ abortSignal }) => {
      if (generator.answer !== "hang") return mockAnswer(generator.answer);
      return new Promise((_, reject) =>
        abortSignal?.addEventListener("abort", () => {
          generator.aborted++;
          reject(abortSignal.reason as Error);
        }),
      );
    },
  });
}

describe.each(testDbKinds)("generating an amendment when the model fails, on %s", (kind) => {
  // A short time-out, so the hanging model is given up on within the test.
  const t = useTestApp(kind, { model: { model: generatingModel(), id: "mock:generator", timeoutMs: 300 } });
  beforeEach(async () => {
    generator.aborted = 0;
    vi.spyOn(console, "error").mockImplementation(() => {});
    await t.call("POST", "/api/v1/skills", {
      json: { name: "guide", description: "Guides. Use when guiding.", body: "# Guide\n", status: "active" },
    });
    await t.call("POST", "/api/v1/observations", { json: { skill: "guide", task: "guide someone", category: "c", outcome: "failure" } });
    return () => vi.restoreAllMocks();
  });
  const generate = () => t.call("POST", "/api/v1/skills/guide/amendments/generate");

  it("says which fields of the model's answer did not fit the schema, and writes nothing", async () => {
    generator.answer = JSON.stringify({ original: { correctness: 1 }, body: 3, rationale: "clearer" });
    const res = await generate();
    expect(res.status).toBe(502);
    expect(await errorOf(res)).toEqual({
      code: "ModelFailed",
      message:
        'the model\'s answer did not fit: field "description": Invalid input: expected string, received undefined; ' +
        'field "body": Invalid input: expected string, received number',
    });
    expect(await writtenFor(t)).toEqual({ amendments: 0, amendedEvents: 0 });
  });

  it("says so when the model's answer is not JSON at all, or a proposal that is not a skill", async () => {
    generator.answer = "Here is a better skill: ...";
    expect(await errorOf(await generate())).toEqual({ code: "ModelFailed", message: "the model's answer did not fit: it is not JSON" });
    generator.answer = JSON.stringify({ description: "", body: "# Guide, better\n", rationale: "clearer" });
    expect(await errorOf(await generate())).toEqual({
      code: "ModelFailed",
      message: 'the model\'s answer did not fit: invalid skill: description of "guide" is empty; write 1–1024 characters',
    });
    expect(await writtenFor(t)).toEqual({ amendments: 0, amendedEvents: 0 });
  });

  it("gives up on a model that does not answer within the time-out, cancels its call, and writes nothing", async () => {
    generator.answer = "hang";
    const started = performance.now();
    const res = await generate();
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(await errorOf(res)).toEqual({ code: "ModelFailed", message: "the model did not answer within 0.3 s; try again" });
    expect(generator.aborted).toBe(1);
    expect(await writtenFor(t)).toEqual({ amendments: 0, amendedEvents: 0 });
  });
});
