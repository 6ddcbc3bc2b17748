import type { Db } from "@/db/client";
import { skillViews } from "@/db/schema";
import type { TeamId } from "../teams/teams";

const MAX_BUFFERED = 100_000;

export interface SkillView {
  teamId: TeamId;
  skillName: string;
  source: string;
  version: number;
  keyId: number | null;
  sessionId: string | null;
  viewedAt: Date;
}

/**
 * Views are usage, recorded on every skill_view; writing each one inline would put a database
 * write on the hot path. They are buffered and written in batches instead: every `intervalMs`,
 * as soon as `batchSize` are waiting, and on a clean shutdown (`close`).
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
    this.flushing = this.flushing.then(() => this.write(batch));
    return this.flushing;
  }

  private async write(batch: SkillView[]): Promise<void> {
    try {
      await this.db.insert(skillViews).values(batch);
    } catch (error) {
      // The database is unreachable: keep the views for the next flush rather than lose them,
      // up to a bound, so a long outage cannot exhaust memory.
      this.buffer = batch.concat(this.buffer).slice(-MAX_BUFFERED);
      console.error(`skillgate: could not record ${batch.length} skill views (${(error as Error).message}); will retry`);
      if (!this.timer) {
        this.timer = setTimeout(() => void this.flush(), this.options.intervalMs * 5);
        this.timer.unref();
      }
    }
  }
}
