import { APICallError } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
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
