import { isServerFailure } from "./outage";

/** How long the probe's `select 1` (and its connecting) may take before the server is taken for away. */
export const PROBE_TIMEOUT_MS = 1_500;
/** While the server is away, how often the probe asks again; also the least time between two probes. */
export const PROBE_EVERY_MS = 1_000;

/** Asks the server a trivial question on a connection of its own, within `ms`; rejects when it gets no answer. */
export type Probe = (ms: number) => Promise<void>;

/**
 * Whether the server answers (docs/outages.md#outages-and-stalls). A request that waits long — for its statement's answer,
 * or for a pooled connection — is not proof of anything: a busy server and a burst of requests look
 * the same from inside a request. So the breaker asks: a probe, on a connection outside the pool,
 * that no queue holds up. Only an unanswered probe opens it; while open, the probe asks again every
 * second (the half-open trial), and the first answer closes it. Why not a failure-counting breaker
 * (cockatiel's, say): there, failures of the calls made through it open it, and here failed or
 * slow queries prove nothing (docs/decisions/database-wrapper.md).
 */
export class OutageBreaker {
  private away = false;
  private answeredAt = Date.now();
  private probing = false;
  private lastProbeAt = 0;
  private nextProbe: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly awayListeners = new Set<() => void>();

  constructor(private readonly probe: Probe) {}

  /** Whether the server was found away and has not answered since. */
  get isAway(): boolean {
    return this.away;
  }

  /** When the server last answered anything (ms since the epoch). */
  get lastAnsweredAt(): number {
    return this.answeredAt;
  }

  /** What a statement's end says of the server: an answer, a failure worth a probe, or nothing (our own timeouts). */
  heard(error: unknown): void {
    if (!error) return this.answered();
    const code = (error as { code?: unknown }).code;
    if (code === "DATABASE_STALLED" || code === "DATABASE_BUSY") return;
    if (isServerFailure(error)) return this.suspect();
    // The server refused this statement (bad data, a bug): it answered.
    this.answered();
  }

  /** Something waits long or failed oddly: ask the server, unless a probe is under way or just asked. */
  suspect(): void {
    if (this.away || this.probing || this.stopped) return;
    if (Date.now() - this.lastProbeAt < PROBE_EVERY_MS) return;
    void this.check().catch(() => {});
  }

  /** Calls `listener` each time the server is found away; returns what unsubscribes it. */
  onAway(listener: () => void): () => void {
    this.awayListeners.add(listener);
    return () => this.awayListeners.delete(listener);
  }

  stop(): void {
    this.stopped = true;
    if (this.nextProbe) clearTimeout(this.nextProbe);
  }

  /**
   * Asks the server now, and takes the answer as the breaker's (health asks this way): an answer
   * closes the breaker, none opens it. Rejects with the probe's error when there was no answer.
   */
  async check(): Promise<void> {
    this.probing = true;
    this.lastProbeAt = Date.now();
    try {
      await this.probe(PROBE_TIMEOUT_MS);
    } catch (error) {
      if (!this.away) this.setAway();
      this.probeAgainWhileAway();
      throw error;
    } finally {
      this.probing = false;
    }
    this.answered();
  }

  private answered(): void {
    this.answeredAt = Date.now();
    this.away = false;
    // Closed: the next probe of the chain has nothing left to find out.
    if (this.nextProbe) clearTimeout(this.nextProbe);
    this.nextProbe = null;
  }

  /** While the server is away, the next probe in a second (one chain of them: a probe already asked defers to it). */
  private probeAgainWhileAway(): void {
    if (!this.away || this.stopped || this.nextProbe) return;
    this.nextProbe = setTimeout(() => {
      this.nextProbe = null;
      void this.check().catch(() => {});
    }, PROBE_EVERY_MS);
    this.nextProbe.unref();
  }

  private setAway(): void {
    this.away = true;
    for (const listener of [...this.awayListeners]) listener();
  }
}
