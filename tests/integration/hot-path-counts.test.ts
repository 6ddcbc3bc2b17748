import { createHook } from "node:async_hooks";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { dispatch } from "../helpers/router";
import { countStatements } from "../helpers/statement-counter";

/**
 * What the two requests every agent makes cost once warm (issue 43): database round trips and
 * promises, counted, not timed. A change that adds one fails here and changes the number on purpose.
 */
async function counted(t: ReturnType<typeof useTestApp>, path: string) {
  const statements = countStatements(t.app.db);
  let promises = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === "PROMISE") promises++;
    },
  }).enable();
  let status: number;
  try {
    const res = await dispatch(new Request(`http://skillgate.test${path}`, { headers: { authorization: `Bearer ${t.alpha.key}` } }));
    status = res.status;
    await res.arrayBuffer();
  } finally {
    hook.disable();
    statements.stop();
  }
  return { status, statements: statements.count, promises };
}

/**
 * Promises a warm request may make at most, from the route handler to the last byte of its answer.
 * Each one costs a warm request more than its own work where Next's async storage is on (a promise
 * hook per promise, and hundreds of bytes for the GC: docs/hot-path.md). Issue 43 took them from
 * 77 and 84 to these; a change that adds one changes the number here, on purpose.
 */
const MAX_PROMISES = { listing: 63, skillView: 65 };

describe.each(testDbKinds)("the warm hot path on %s", (kind) => {
  // The shared rate limit on, as in production (6,000 a minute): each instance claims the window's
  // allowance in chunks that double — after the 1st, 2nd, 4th, 8th and 16th request — so the 16th
  // request of this test (the first skill_view counted) claims its chunk from the shared row.
  const t = useTestApp(kind, { rateLimitPerMinute: 6000 });
  const CLAIM = kind === "pglite" ? 1 : 5; // PGlite runs the claim's transaction as one call

  it("answers a warm listing and a warm skill_view without the database, within their promises", async () => {
    for (let i = 0; i < 5; i++) expect((await counted(t, "/api/v1/listing")).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await counted(t, "/api/v1/skills/systematic-debugging")).status).toBe(200);
    const listing = [];
    const view = [];
    for (let i = 0; i < 5; i++) listing.push(await counted(t, "/api/v1/listing"));
    for (let i = 0; i < 5; i++) view.push(await counted(t, "/api/v1/skills/systematic-debugging"));
    expect(listing.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(view.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(listing.map((answer) => answer.statements)).toEqual([0, 0, 0, 0, 0]);
    expect(view.map((answer) => answer.statements)).toEqual([CLAIM, 0, 0, 0, 0]);
    expect(Math.max(...listing.map((answer) => answer.promises))).toBeLessThanOrEqual(MAX_PROMISES.listing);
    expect(Math.max(...view.slice(1).map((answer) => answer.promises))).toBeLessThanOrEqual(MAX_PROMISES.skillView);
  });
});
