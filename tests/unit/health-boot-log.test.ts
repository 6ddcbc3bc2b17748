import { afterEach, describe, expect, it, vi } from "vitest";
import { GET } from "@/app/api/health/route";
import { installApp, provideBoot } from "@/lib/current-app";
import { OutageLog } from "@/lib/log";
import type { App } from "@/lib/contracts/app";

/** A server whose database went away: what node-postgres throws when nothing listens. */
const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });

/** Just what health reads of an App: a database that answers, and the instance's outage log. */
const answering = { database: { kind: "postgres", ping: async () => {} }, work: { outages: new OutageLog() } } as unknown as App;

const firstLines = (calls: unknown[][]) => calls.map(([line]) => String(line).split("\n")[0]);

afterEach(() => vi.restoreAllMocks());

/** Health when the App cannot boot: the answer says what failed, and so does the log (issue 42). */
describe("health while the app cannot boot", () => {
  it("logs a boot the database stops once when it starts and once when it ends", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    provideBoot(() => Promise.reject(refused));
    for (let i = 0; i < 3; i++) {
      const res = await GET();
      expect([res.status, res.headers.get("retry-after")]).toEqual([503, "5"]);
      expect(await res.json()).toEqual({
        status: "unavailable",
        database: { state: "down", error: "connect ECONNREFUSED 127.0.0.1:5432 [ECONNREFUSED]" },
      });
    }
    const restore = installApp(answering);
    try {
      expect((await GET()).status).toBe(200);
    } finally {
      restore();
    }
    expect(firstLines(logged.mock.calls)).toEqual([
      "skillgate: health checks: booting the app: the database is unavailable (connect ECONNREFUSED 127.0.0.1:5432 [ECONNREFUSED]); trying again until it answers",
      expect.stringMatching(
        /^skillgate: health checks: booting the app: the database answers again, after 3 failed attempt\(s\) over \d+ s$/,
      ),
    ]);
  });

  it("logs a boot that fails for another reason as unexpected, with where it was thrown", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    provideBoot(() => Promise.reject(new Error("migration 0042 failed")));
    const res = await GET();
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: "unavailable", database: { state: "down", error: "migration 0042 failed" } });
    expect(firstLines(logged.mock.calls)).toEqual(["skillgate: health checks: booting the app: migration 0042 failed"]);
    expect(String(logged.mock.calls[0]![0])).toMatch(/\n\s+at /);
  });
});
