import { randomUUID } from "node:crypto";

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

  /** Runs `tick` every `ms` until the returned function is called or the app closes. */
  every(ms: number, tick: () => Promise<void>): () => void {
    const timer = setInterval(() => {
      tick().catch(() => {
        // A tick that fails (the database away a moment) is tried again on the next one.
      });
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
