import { after } from "next/server";
import { inSlices } from "@/db/batches";
import type { Db } from "@/db/client";
import { describeDatabaseError, isDatabaseOutage } from "@/db/outage";
import { writeViews, type SkillView } from "./rollups";

const MAX_BUFFERED = 100_000;

/**
 * Views are usage, recorded on every skill_view; writing each one inline would put a database
 * write on the hot path. They are buffered and written in batches instead: every `intervalMs`,
 * as soon as `batchSize` are waiting, and on a clean shutdown (`close`).
 *
 * A batch that fails because the database is unreachable is kept and retried. A batch the
 * database refuses for any other reason is split until the rows it refuses are alone: those are
 * dropped and logged once, and every other view is written. One bad row never blocks the rest.
 */
export class ViewRecorder {
  private buffer: SkillView[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly options: { batchSize: number; intervalMs: number } = { batchSize: 500, intervalMs: 1000 },
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
    this.flushing = this.flushing.then(() => this.writeAll(batch));
    return this.flushing;
  }

  private async writeAll(batch: SkillView[]): Promise<void> {
    const slices = inSlices(batch);
    for (const [i, slice] of slices.entries()) {
      const kept = await this.write(slice);
      if (kept.length > 0) {
        this.keepForRetry(kept.concat(...slices.slice(i + 1)));
        return;
      }
    }
  }

  /** Writes the views; returns those to retry because the database could not be reached. */
  private async write(views: SkillView[]): Promise<SkillView[]> {
    try {
      await writeViews(this.db, views);
      return [];
    } catch (error) {
      if (isDatabaseOutage(error)) return views;
      const [view] = views;
      if (view && views.length === 1) {
        console.error(
          `skillgate: dropped a skill view the database refused (team ${view.teamId}, skill "${view.skillName}"): ${describeDatabaseError(error)}`,
        );
        return [];
      }
      const half = Math.ceil(views.length / 2);
      const retryFirst = await this.write(views.slice(0, half));
      if (retryFirst.length > 0) return retryFirst.concat(views.slice(half));
      return this.write(views.slice(half));
    }
  }

  /** Keeps views for the next flush rather than lose them, up to a bound, so a long outage cannot exhaust memory. */
  private keepForRetry(views: SkillView[]): void {
    this.buffer = views.concat(this.buffer).slice(-MAX_BUFFERED);
    console.error(`skillgate: the database is unreachable; ${views.length} skill view(s) kept to write later`);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.options.intervalMs * 5);
      this.timer.unref();
    }
  }
}
