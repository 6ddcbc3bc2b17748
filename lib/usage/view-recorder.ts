import { after } from "next/server";
import { inSlices } from "@/db/batches";
import type { Db } from "@/db/client";
import { describeDatabaseError, isUnanswered } from "@/db/outage";
import { asLongWork } from "@/db/budget";
import { OutageLog } from "../log";
import { writeViews, type SkillView } from "./rollups";

/** Views kept while the database is away; past this the oldest are dropped, and the count is logged. */
export const MAX_BUFFERED = 100_000;
const OUTAGE = "writing skill views";

/**
 * Views are usage, recorded on every skill_view; writing each one inline would put a database
 * write on the hot path. They are buffered and written in batches instead: every `intervalMs`,
 * as soon as `batchSize` are waiting, and on a clean shutdown (`close`).
 *
 * A batch that fails because the database is unreachable is kept and retried, up to
 * `MAX_BUFFERED` views in all (the oldest dropped past it, counted in the log). A batch the
 * database refuses for any other reason is split until the rows it refuses are alone: those are
 * dropped and logged once, and every other view is written. One bad row never blocks the rest.
 */
export class ViewRecorder {
  private buffer: SkillView[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  /** Views dropped during the current outage, for the line that says it ended. */
  private dropped = 0;

  constructor(
    private readonly db: Db,
    private readonly options: { batchSize: number; intervalMs: number; maxBuffered?: number } = { batchSize: 500, intervalMs: 1000 },
    private readonly outages: OutageLog = new OutageLog(),
  ) {}

  record(view: SkillView): void {
    this.buffer.push(view);
    if (this.buffer.length >= this.options.batchSize) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.options.intervalMs);
      this.timer.unref();
    }
  }

  /**
   * Where views must not wait for the interval — a serverless function is frozen once it has
   * answered — the buffer is written right after the response is sent (Next's `after`).
   */
  flushAfterResponse(enabled: boolean): void {
    if (!enabled || this.buffer.length === 0) return;
    try {
      after(() => this.flush());
    } catch {
      // Outside a request (a script, a test): the interval writes them.
    }
  }

  /** How many views may wait while the database is away. */
  private get bound(): number {
    return this.options.maxBuffered ?? MAX_BUFFERED;
  }

  get pending(): number {
    return this.buffer.length;
  }

  /** Writes what is buffered; batches are written one after another, in order. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.buffer;
    this.buffer = [];
    if (batch.length === 0) return this.flushing;
    // Long work, whichever request's timer or `after` started it.
    this.flushing = this.flushing.then(() => asLongWork(() => this.writeAll(batch)));
    return this.flushing;
  }

  private async writeAll(batch: SkillView[]): Promise<void> {
    const slices = inSlices(batch);
    for (const [i, slice] of slices.entries()) {
      const { kept, outage } = await this.write(slice);
      if (kept.length > 0) {
        this.keepForRetry(kept.concat(...slices.slice(i + 1)), outage);
        return;
      }
    }
    if (this.dropped > 0)
      console.error(`skillgate: ${this.dropped} skill view(s) were dropped during the outage: more than ${this.bound} waited`);
    this.dropped = 0;
    this.outages.recovered(OUTAGE);
  }

  /** Writes the views; returns those to retry because the database could not be reached, and why. */
  private async write(views: SkillView[]): Promise<{ kept: SkillView[]; outage?: unknown }> {
    try {
      await writeViews(this.db, views);
      return { kept: [] };
    } catch (error) {
      if (isUnanswered(error)) return { kept: views, outage: error };
      const [view] = views;
      if (view && views.length === 1) {
        console.error(
          `skillgate: dropped a skill view the database refused (team ${view.teamId}, skill "${view.skillName}"): ${describeDatabaseError(error)}`,
        );
        return { kept: [] };
      }
      const half = Math.ceil(views.length / 2);
      const first = await this.write(views.slice(0, half));
      if (first.kept.length > 0) return { kept: first.kept.concat(views.slice(half)), outage: first.outage };
      return this.write(views.slice(half));
    }
  }

  /** Keeps views for the next flush rather than lose them, up to a bound, so a long outage cannot exhaust memory. */
  private keepForRetry(views: SkillView[], outage: unknown): void {
    const waiting = views.concat(this.buffer);
    this.dropped += Math.max(0, waiting.length - this.bound);
    this.buffer = waiting.slice(-this.bound);
    this.outages.failed(OUTAGE, outage);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.options.intervalMs * 5);
      this.timer.unref();
    }
  }
}
