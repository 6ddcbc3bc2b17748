import { randomUUID } from "node:crypto";
import { asLongWork } from "@/db/budget";
import { isUnanswered } from "@/db/outage";
import { logUnexpected, OutageLog } from "../log";

/**
 * The background work of one instance: its id (the owner named on the leases it holds) and the
 * timers of what it is doing, so closing the app stops them all — a closed instance holds nothing
 * and its leases run out for another to take over.
 */
export class InstanceWork {
  readonly instanceId = randomUUID();

  /**
   * `leaseMs`: how long a lease on a run or evaluation lasts without renewal (renewed every third
   * of it). `claimsPerTick`: how many expired rows of each kind one tick takes over.
   */
  constructor(
    readonly leaseMs = 30_000,
    readonly claimsPerTick = 4,
  ) {}

  private readonly timers = new Set<NodeJS.Timeout>();
  /** The outages this instance's background work met, said once per kind of work. */
  readonly outages = new OutageLog();

  /**
   * Runs `tick` every `ms`, as long work (db/budget.ts), until the returned function is called or
   * the app closes; a tick still running when the next is due is not started twice. A tick that
   * fails because the database is away is tried again on the next one, and `what` is logged once
   * for the outage; any other failure is logged with `what`.
   */
  every(ms: number, what: string, tick: () => Promise<void>): () => void {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      asLongWork(tick)
        .then(
          () => this.outages.recovered(what),
          (error: unknown) => (isUnanswered(error) ? this.outages.failed(what, error) : logUnexpected(what, error)),
        )
        .finally(() => (running = false));
    }, ms);
    timer.unref();
    this.timers.add(timer);
    return () => {
      clearInterval(timer);
      this.timers.delete(timer);
    };
  }

  stopAll(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers.clear();
  }
}
