import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { OutageBreaker, PROBE_EVERY_MS, PROBE_TIMEOUT_MS, type Probe } from "@/db/breaker";
import { DatabaseBusy, DatabaseStalled } from "@/db/budget";

/**
 * The outage breaker (db/breaker.ts) on its own: a probe the test answers or not, and fake time.
 * Only an unanswered probe opens it; while open it probes again every second (the half-open
 * trial) and the first answer closes it; what a statement's end says is taken for what it is.
 */

/** A probe whose every call waits for the test to answer it or let it fail. */
function scriptedProbe() {
  const calls: { ms: number; answer(): void; fail(): void }[] = [];
  const probe: Probe = (ms) =>
    new Promise<void>((resolve, reject) => {
      calls.push({ ms, answer: resolve, fail: () => reject(new Error(`no answer within ${ms} ms`)) });
    });
  return { probe, calls };
}

/** Lets the promise callbacks queued so far run (a probe's answer reaching the breaker). */
const settle = () => vi.advanceTimersByTimeAsync(0);

/** An error as node-postgres gives it, with PostgreSQL's or Node's code. */
const failure = (code: string) => Object.assign(new Error(code), { code });

describe("the outage breaker", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("stays closed while the probe answers, and asks at most once a second however often it is suspected", async () => {
    const { probe, calls } = scriptedProbe();
    const breaker = new OutageBreaker(probe);
    breaker.suspect();
    breaker.suspect();
    expect(calls.map((call) => call.ms)).toEqual([PROBE_TIMEOUT_MS]);
    calls[0]!.answer();
    await settle();
    breaker.suspect();
    expect([breaker.isAway, calls.length]).toEqual([false, 1]);
    await vi.advanceTimersByTimeAsync(PROBE_EVERY_MS);
    breaker.suspect();
    expect(calls.length).toBe(2);
    breaker.stop();
  });

  it("opens when a probe gets no answer, tells its listeners once, probes again every second while open, and closes on the first answer", async () => {
    const { probe, calls } = scriptedProbe();
    const breaker = new OutageBreaker(probe);
    let toldAway = 0;
    breaker.onAway(() => toldAway++);
    breaker.suspect();
    calls[0]!.fail();
    await settle();
    expect([breaker.isAway, toldAway]).toEqual([true, 1]);
    // Suspicions while open ask nothing more: the probe's own chain does.
    breaker.suspect();
    await vi.advanceTimersByTimeAsync(PROBE_EVERY_MS - 1);
    expect(calls.length).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.length).toBe(2);
    calls[1]!.fail();
    await vi.advanceTimersByTimeAsync(PROBE_EVERY_MS);
    expect([breaker.isAway, toldAway, calls.length]).toEqual([true, 1, 3]);
    calls[2]!.answer();
    await settle();
    expect([breaker.isAway, breaker.lastAnsweredAt]).toEqual([false, Date.now()]);
    // Closed again: no probe until something is suspect.
    await vi.advanceTimersByTimeAsync(10 * PROBE_EVERY_MS);
    expect(calls.length).toBe(3);
  });

  it("takes an answer or a refusal as the server answering, a server failure as worth a probe, and its own timeouts as nothing", async () => {
    const { probe, calls } = scriptedProbe();
    const breaker = new OutageBreaker(probe);
    breaker.suspect();
    calls[0]!.fail();
    await settle();
    // A request that ran out of time, or was refused because the server is away, proves nothing.
    breaker.heard(new DatabaseBusy("did not answer within the 5 ms left"));
    breaker.heard(new DatabaseStalled("stopped answering (a probe got no answer)"));
    expect(breaker.isAway).toBe(true);
    // The server refused a statement (an undefined table): it answered.
    breaker.heard(failure("42P01"));
    expect(breaker.isAway).toBe(false);
    await vi.advanceTimersByTimeAsync(PROBE_EVERY_MS);
    const asked = calls.length;
    breaker.heard(new DatabaseBusy("no database connection came free within 800 ms"));
    expect(calls.length).toBe(asked);
    // The server refused a connection, or said it is shutting down: ask it.
    breaker.heard(failure("ECONNREFUSED"));
    expect(calls.length).toBe(asked + 1);
    calls[asked]!.answer();
    await settle();
    await vi.advanceTimersByTimeAsync(PROBE_EVERY_MS);
    breaker.heard(failure("57P01"));
    expect(calls.length).toBe(asked + 2);
    breaker.stop();
  });

  it("answers health's check with the probe's own error and opens, and probes no more once stopped", async () => {
    const { probe, calls } = scriptedProbe();
    const breaker = new OutageBreaker(probe);
    const checked = breaker.check();
    calls[0]!.fail();
    await expect(checked).rejects.toThrow(/^no answer within 1500 ms$/);
    expect(breaker.isAway).toBe(true);
    breaker.stop();
    await vi.advanceTimersByTimeAsync(10 * PROBE_EVERY_MS);
    expect(calls.length).toBe(1);
  });
});
