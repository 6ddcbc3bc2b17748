import { afterEach, describe, expect, it, vi } from "vitest";
import { InstanceWork } from "@/lib/jobs/work";
import { waitUntil } from "../helpers/wait";

/** Issue 25: the background tick and the lease renewals drop no error, and say an outage once, with a count. */
describe("an instance's background work", () => {
  const work = new InstanceWork();
  afterEach(() => {
    work.stopAll();
    vi.restoreAllMocks();
  });
  const refused = () => Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });

  it("logs an outage when it starts and when it ends, with the failures between, and nothing else", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    let ticks = 0;
    work.every(5, "the test tick", async () => {
      ticks++;
      if (ticks <= 4) throw refused();
    });
    await waitUntil(
      () => logged.mock.calls.length,
      (lines) => lines >= 2,
      { what: "the outage's two lines" },
    );
    expect(logged.mock.calls.map((call) => String(call[0]))).toEqual([
      "skillgate: the test tick: the database is unavailable (connect ECONNREFUSED 127.0.0.1:5432 [ECONNREFUSED]); trying again until it answers",
      expect.stringMatching(/^skillgate: the test tick: the database answers again, after 4 failed attempt\(s\) over \d+ s$/),
    ]);
  });

  it("logs any other failure with what was running, every time", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    work.every(5, "the test tick", async () => {
      throw new Error("a bug in the tick");
    });
    await waitUntil(
      () => logged.mock.calls.length,
      (lines) => lines >= 2,
      { what: "two failures logged" },
    );
    expect(String(logged.mock.calls[0]![0])).toMatch(/^skillgate: the test tick: a bug in the tick\n\s+at /);
    expect(String(logged.mock.calls[1]![0])).toMatch(/^skillgate: the test tick: a bug in the tick\n/);
  });

  it("does not start a tick while the last one still runs", async () => {
    let running = 0;
    let most = 0;
    let ticks = 0;
    work.every(2, "the slow tick", async () => {
      running++;
      ticks++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 20));
      running--;
    });
    await waitUntil(
      () => ticks,
      (count) => count >= 3,
      { what: "three ticks" },
    );
    expect(most).toBe(1);
  });
});
