import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it, vi } from "vitest";
import { installApp } from "@/lib/current-app";
import { anotherInstance, fetchApp, useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";

const LIMIT = 5;

/** What one answer said of its limit: status, X-RateLimit-Limit, -Remaining, -Reset, and Retry-After. */
interface Said {
  status: number;
  limit: string | null;
  remaining: string | null;
  reset: number;
  retryAfter: string | null;
}

function said(res: Response): Said {
  return {
    status: res.status,
    limit: res.headers.get("x-ratelimit-limit"),
    remaining: res.headers.get("x-ratelimit-remaining"),
    reset: Number(res.headers.get("x-ratelimit-reset")),
    retryAfter: res.headers.get("retry-after"),
  };
}

/**
 * The seconds until the window resets: 60 on the request that opened it, then never more than
 * before nor less than the time these few requests can take; a 429's is its Retry-After.
 */
function expectResets(answers: Said[]): void {
  expect(answers[0]!.reset).toBe(60);
  for (const [i, answer] of answers.entries()) {
    expect(answer.reset, `answer ${i}`).toBeGreaterThanOrEqual(50);
    if (i > 0) expect(answer.reset, `answer ${i}`).toBeLessThanOrEqual(answers[i - 1]!.reset);
    if (answer.status === 429) expect(answer.retryAfter, `answer ${i}`).toBe(String(answer.reset));
  }
}

/**
 * Every answer to a counted request says its key's (or install link's) limit (issue 28):
 * X-RateLimit-Limit, -Remaining (one less each request, 0 on a 429) and -Reset (seconds until
 * the window ends), on REST, MCP and install links alike, refusals included.
 */
describe.each(testDbKinds)("rate-limit headers on %s", (kind) => {
  const t = useTestApp(kind, { rateLimitPerMinute: LIMIT });

  it("count down a key's window over REST, errors after the key included, and say 0 on its 429s", async () => {
    const answers: Said[] = [];
    for (const url of ["/api/v1/listing", "/api/v1/skills/no-such-skill", "/api/v1/listing", "/api/v1/skills/Bad_Name", "/api/v1/listing"])
      answers.push(said(await t.call("GET", url)));
    for (let i = 0; i < 2; i++) answers.push(said(await t.call("GET", "/api/v1/listing")));
    expect(answers.map(({ status, limit, remaining, retryAfter }) => [status, limit, remaining, retryAfter])).toEqual([
      [200, "5", "4", null],
      [404, "5", "3", null],
      [200, "5", "2", null],
      [400, "5", "1", null],
      [200, "5", "0", null],
      [429, "5", "0", String(answers[5]!.reset)],
      [429, "5", "0", String(answers[6]!.reset)],
    ]);
    expectResets(answers);
    const refused = await t.call("GET", "/api/v1/listing");
    expect(await refused.json()).toEqual({
      error: { code: "RateLimited", message: `too many requests for this API key; retry in ${refused.headers.get("retry-after")} s` },
    });
    // Another key has its own window; a key not known is not counted, and says nothing of a limit.
    expect(said(await t.call("GET", "/api/v1/listing", { key: t.beta.key }))).toMatchObject({ status: 200, limit: "5", remaining: "4" });
    const unknown = await t.call("GET", "/api/v1/listing", { key: "sg_not_a_key" });
    expect([unknown.status, unknown.headers.get("x-ratelimit-limit"), unknown.headers.get("x-ratelimit-remaining")]).toEqual([
      401,
      null,
      null,
    ]);
  });

  it("count down a key's window over MCP, with the real client, to the 429 that ends it", async () => {
    const answers: Said[] = [];
    const client = new Client({ name: "rate-limit-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL("http://skillgate.test/api/mcp"), {
      requestInit: { headers: { authorization: `Bearer ${t.alpha.key}` } },
      fetch: async (url, init) => {
        const res = await fetchApp(new Request(url, init));
        answers.push(said(res));
        return res;
      },
    });
    try {
      // initialize, its notification, and the stream the client asks for once initialized (refused
      // with 405, in the background): three requests of the five.
      await client.connect(transport);
      await vi.waitFor(() => expect(answers.map((answer) => answer.status)).toEqual([200, 202, 405]));
      for (let i = 0; i < 2; i++) await client.callTool({ name: "skill_list", arguments: {} });
      await expect(client.callTool({ name: "skill_list", arguments: {} })).rejects.toThrow(
        '{"error":{"code":"RateLimited","message":"too many requests for this API key; retry in',
      );
    } finally {
      await client.close().catch(() => {});
    }
    expect(answers.map(({ status, limit, remaining, retryAfter }) => [status, limit, remaining, retryAfter])).toEqual([
      [200, "5", "4", null],
      [202, "5", "3", null],
      [405, "5", "2", null],
      [200, "5", "1", null],
      [200, "5", "0", null],
      [429, "5", "0", String(answers[5]!.reset)],
    ]);
    expectResets(answers);
    // Every method of the endpoint is counted: a DELETE is refused alike while the window is spent.
    const ended = await t.call("DELETE", "/api/mcp", { headers: { "mcp-session-id": "no-such-session" } });
    expect(said(ended)).toMatchObject({ status: 429, limit: "5", remaining: "0" });
  });

  it("count down an install link's window, apart from the key that made it", async () => {
    const made = await t.call("POST", "/api/v1/install-links");
    expect(said(made)).toMatchObject({ status: 201, limit: "5", remaining: "4" });
    const linkPath = new URL(((await made.json()) as { url: string }).url).pathname;
    const answers: Said[] = [];
    for (const rest of ["/.well-known/skills/index.json", "/.well-known/skills/no-such-skill/SKILL.md", "/.well-known/skills/index.json"])
      answers.push(said(await t.call("GET", `${linkPath}${rest}`, { key: null })));
    for (let i = 0; i < 4; i++) answers.push(said(await t.call("GET", `${linkPath}/.well-known/skills/index.json`, { key: null })));
    expect(answers.map(({ status, limit, remaining }) => [status, limit, remaining])).toEqual([
      [200, "5", "4"],
      [404, "5", "3"],
      [200, "5", "2"],
      [200, "5", "1"],
      [200, "5", "0"],
      [429, "5", "0"],
      [429, "5", "0"],
    ]);
    expectResets(answers);
    const refused = await t.call("GET", `${linkPath}/.well-known/skills/index.json`, { key: null });
    expect(await refused.json()).toEqual({
      error: { code: "RateLimited", message: `too many requests for this install link; retry in ${refused.headers.get("retry-after")} s` },
    });
    // The key's window is its own: one request spent by making the link.
    expect(said(await t.call("GET", "/api/v1/listing"))).toMatchObject({ status: 200, limit: "5", remaining: "3" });
    const revokedOrForged = await t.call("GET", "/i/sgi_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/.well-known/skills/index.json", { key: null });
    expect([revokedOrForged.status, revokedOrForged.headers.get("x-ratelimit-limit")]).toEqual([401, null]);
  });

  it("say nothing of a limit where the deployment sets none", async () => {
    // A second app on the same database, without a limit: the key is counted nowhere.
    const unlimited = anotherInstance(t.app, { rateLimitPerMinute: 0 });
    const putBack = installApp(unlimited);
    try {
      const res = await t.call("GET", "/api/v1/listing");
      expect([res.status, res.headers.get("x-ratelimit-limit"), res.headers.get("x-ratelimit-remaining")]).toEqual([200, null, null]);
    } finally {
      putBack();
      await unlimited.close();
    }
  });
});
