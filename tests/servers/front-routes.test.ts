import { get, type IncomingHttpHeaders } from "node:http";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPS_KEY as KEY, opsOn } from "../helpers/ops-team";
import { scratchDatabase, type ScratchDatabase } from "../helpers/scratch-database";
import { startServer, type RunningServer } from "../helpers/server";

/**
 * The listing and skill_view answered in front of Next's router once warm (lib/http/front-routes.ts,
 * docs/decisions/front-routes.md). Next streams a route's answer (chunked); the front answers with
 * its length: that is how each test knows which of the two answered, and that both did.
 */
const databases = [
  { name: "PGlite", scratch: async (): Promise<ScratchDatabase | null> => null },
  ...(process.env.TEST_DATABASE_URL ? [{ name: "PostgreSQL", scratch: () => scratchDatabase("skillgate_front") }] : []),
];

// Node's fetch asks for gzip unless told otherwise, and a compressed answer has no length either way.
const auth = { authorization: `Bearer ${KEY}`, "accept-encoding": "identity" };

/** What a client sees of an answer, less what says how it was sent (its framing) and when. */
async function answerOf(res: Response) {
  const headers = Object.fromEntries([...res.headers].filter(([name]) => !TRANSPORT.has(name)));
  // What is left of the request count differs by one between two requests: said apart from the rest.
  const remaining = Number(headers["x-ratelimit-remaining"]);
  delete headers["x-ratelimit-remaining"];
  delete headers["x-ratelimit-reset"];
  return { status: res.status, headers, remaining, body: await res.text() };
}
const TRANSPORT = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length"]);

/** Which answered: Next (chunked) or the front (its length). */
function answeredBy(res: Response): "next" | "front" {
  if (res.headers.get("transfer-encoding") === "chunked") return "next";
  if (res.headers.get("content-length") !== null) return "front";
  throw new Error(`neither chunked nor with a length: ${JSON.stringify([...res.headers])}`);
}

describe.each(databases)("agent reads in front of Next's router, on $name", ({ scratch }) => {
  let server: RunningServer;
  let database: ScratchDatabase | null;
  beforeAll(async () => {
    database = await scratch();
    server = await startServer({
      ...opsOn(database?.url ?? ""),
      SKILLGATE_RATE_LIMIT: "1000",
    });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it("answers as Next answers the same request: the same status, headers and body, and each request counted once", async () => {
    // Next's way to each: a percent-encoded name (Next decodes it; the front takes none), the listing with a trailing slash.
    const requests: Array<[front: string, next: string, headers: Record<string, string>]> = [
      ["/api/v1/skills/writing-plans", "/api/v1/skills/writing%2Dplans", auth],
      ["/api/v1/skills/writing-plans?version=1", "/api/v1/skills/writing%2Dplans?version=1", auth],
      ["/api/v1/skills/writing-plans?version=99", "/api/v1/skills/writing%2Dplans?version=99", auth],
      ["/api/v1/skills/no-such-skill", "/api/v1/skills/no%2Dsuch-skill", auth],
      ["/api/v1/skills/writing-plans", "/api/v1/skills/writing%2Dplans", { "accept-encoding": "identity" }],
      [
        "/api/v1/skills/writing-plans",
        "/api/v1/skills/writing%2Dplans",
        { authorization: "Bearer sg_not_a_key_0000000000000000000", "accept-encoding": "identity" },
      ],
      ["/api/v1/listing", "/api/v1/listing/", auth],
      ["/api/v1/listing?format=json&cap=2000", "/api/v1/listing/?format=json&cap=2000", auth],
      ["/api/v1/listing?cap=-1", "/api/v1/listing/?cap=-1", auth],
    ];
    // Next loads each route at its first request: only then may the front answer it.
    for (const path of ["/api/v1/skills/writing-plans", "/api/v1/listing"])
      expect(answeredBy(await fetch(`${server.url}${path}`, { headers: auth }))).toBe("next");
    for (const [front, next, headers] of requests) {
      const byNext = await fetch(`${server.url}${next}`, { headers });
      const byFront = await fetch(`${server.url}${front}`, { headers });
      expect([next, answeredBy(byNext)]).toEqual([next, "next"]);
      expect([front, answeredBy(byFront)]).toEqual([front, "front"]);
      const [first, second] = [await answerOf(byNext), await answerOf(byFront)];
      expect({ front, ...second, remaining: 0 }).toEqual({ front, ...first, remaining: 0 });
      if (headers.authorization === auth.authorization) expect(second.remaining).toBe(first.remaining - 1);
    }
  });

  it("answers an install link's files as Next answers them through the proxy's rewrite", async () => {
    const files = [
      {
        path: "nested-skill/SKILL.md",
        content: "---\nname: nested-skill\ndescription: Runs its script. Use when a script is asked for.\n---\n# Nested\n",
      },
      { path: "nested-skill/scripts/run.sh", content: "#!/bin/sh\necho nested\n" },
    ];
    const synced = await fetch(`${server.url}/api/v1/skills/sync`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ files }),
    });
    expect(synced.status).toBe(200);
    const created = await fetch(`${server.url}/api/v1/install-links`, { method: "POST", headers: auth });
    expect(created.status).toBe(201);
    const link = new URL(((await created.json()) as { url: string }).url).pathname;
    const skills = `${link}/.well-known/skills`;
    const plain = { "accept-encoding": "identity" };
    // Next's way to each: a percent-encoded dot, which the proxy keeps and Next decodes; the front takes none.
    const requests: Array<[front: string, next: string, status: number]> = [
      [`${skills}/index.json`, `${skills}/index%2Ejson`, 200],
      [`${skills}/writing-plans/SKILL.md`, `${skills}/writing-plans/SKILL%2Emd`, 200],
      [`${skills}/nested-skill/scripts/run.sh`, `${skills}/nested-skill/scripts/run%2Esh`, 200],
      [`${skills}/nested-skill/no-such.md`, `${skills}/nested-skill/no-such%2Emd`, 404],
      [
        `/i/sgi_not_a_link_000000/.well-known/skills/writing-plans/SKILL.md`,
        `/i/sgi_not_a_link_000000/.well-known/skills/writing-plans/SKILL%2Emd`,
        401,
      ],
    ];
    // Next loads the route at its first request: only then may the front answer it.
    expect(answeredBy(await fetch(`${server.url}${skills}/index.json`, { headers: plain }))).toBe("next");
    for (const [front, next, status] of requests) {
      const byNext = await fetch(`${server.url}${next}`, { headers: plain });
      const byFront = await fetch(`${server.url}${front}`, { headers: plain });
      expect([next, answeredBy(byNext)]).toEqual([next, "next"]);
      expect([front, answeredBy(byFront)]).toEqual([front, "front"]);
      const [first, second] = [await answerOf(byNext), await answerOf(byFront)];
      // Next's answer through the proxy's rewrite also names the path it was rewritten to, an
      // internal header no installer reads; the front says nothing of it.
      expect(first.headers["x-middleware-rewrite"]).toMatch(/^\/api\/install-link\/sgi_/);
      delete first.headers["x-middleware-rewrite"];
      expect([next, first.status]).toEqual([next, status]);
      expect({ front, ...second, remaining: 0 }).toEqual({ front, ...first, remaining: 0 });
    }
    const script = await fetch(`${server.url}${skills}/nested-skill/scripts/run.sh`, { headers: plain });
    expect([answeredBy(script), await script.text()]).toEqual(["front", "#!/bin/sh\necho nested\n"]);
    // A hidden file (a segment beginning with a dot, as `.` and `..` do), the folder itself, another
    // method: Next's, through the proxy's rewrite, which says where it sent the request.
    for (const [method, path, status] of [
      ["GET", `${skills}/nested-skill/.hidden`, 404],
      ["GET", `${skills}/`, 200],
      ["HEAD", `${skills}/writing-plans/SKILL.md`, 200],
    ] as const) {
      const res = await fetch(`${server.url}${path}`, { method, headers: plain });
      expect([method, path, res.status, res.headers.has("x-middleware-rewrite")]).toEqual([method, path, status, true]);
    }
  });

  it("compresses as Next does, and answers a matching ETag with 304", async () => {
    const plain = await fetch(`${server.url}/api/v1/skills/writing-plans`, { headers: auth });
    const body = await plain.text();
    expect(body.length).toBeGreaterThan(1024);
    for (const path of ["/api/v1/skills/writing-plans", "/api/v1/skills/writing%2Dplans"]) {
      // Node's fetch would decompress without saying: the raw bytes are read over http instead.
      const raw = await rawGet(`${server.url}${path}`, { ...auth, "accept-encoding": "gzip" });
      expect([path, raw.headers["content-encoding"], raw.headers.vary]).toEqual([
        path,
        "gzip",
        "rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch, Accept-Encoding",
      ]);
      expect(gunzipSync(raw.body).toString()).toBe(body);
    }
    const etag = plain.headers.get("etag") ?? "";
    const notModified = await fetch(`${server.url}/api/v1/skills/writing-plans`, { headers: { ...auth, "if-none-match": etag } });
    expect([notModified.status, notModified.headers.get("etag"), await notModified.text()]).toEqual([304, etag, ""]);
  });

  it("counts every view it answers: the usage report has each one", async () => {
    const views = async () => {
      const usage = (await (await fetch(`${server.url}/api/v1/usage`, { headers: auth })).json()) as {
        skills: Array<{ name: string; views30d: number }>;
      };
      return usage.skills.find((skill) => skill.name === "test-driven-development")?.views30d ?? 0;
    };
    const before = await views();
    const answers = await Promise.all(
      Array.from({ length: 16 }, () => fetch(`${server.url}/api/v1/skills/test-driven-development`, { headers: auth })),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(16).fill(200));
    expect(answers.filter((res) => answeredBy(res) === "front").length).toBeGreaterThanOrEqual(15);
    expect(await views()).toBe(before + 16);
  });

  it("leaves to Next what is not exactly a warm GET of the two routes", async () => {
    for (const [method, path] of [
      ["GET", "/api/v1/skills/Writing-Plans"],
      ["GET", "/api/v1/skills/writing-plans/files"],
      ["POST", "/api/v1/listing"],
    ]) {
      const res = await fetch(`${server.url}${path}`, { method, headers: auth });
      expect([method, path, answeredBy(res)]).toEqual([method, path, "next"]);
    }
  });
});

function rawGet(url: string, headers: Record<string, string>): Promise<{ headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    }).on("error", reject);
  });
}
