import type { Db } from "@/db/client";
import { asLongWork } from "@/db/budget";
import { isUnanswered } from "@/db/outage";
import { logUnexpected } from "../log";
import { claimExpired, holdLease, stillOwned, type Lease, type LeasedTable } from "./leases";
import type { InstanceWork } from "./work";

/**
 * The one worker for long work kept as leased rows (activation runs, evaluations): it holds the
 * row's lease while the job works, and decides what an ending means — an outage or a lost lease
 * leaves the row for whoever holds it next; any other error marks it failed, but only while this
 * worker still owns it. A job says only what its work is and how its row fails.
 */
export interface LeasedJob {
  /** What the log calls one row: "activation run", "evaluation". */
  kind: string;
  table: LeasedTable;
  /**
   * Works on the row from what is written (another worker may have done part of it); checks
   * `owned()` before each step and stops when it says no.
   */
  work(id: number, lease: Lease, owned: () => Promise<boolean>): Promise<void>;
  /** Marks the row failed with what went wrong, if `token` still owns it and it is still running. */
  fail(id: number, token: string, error: unknown): Promise<void>;
}

/**
 * Works on one row under its lease until the job is done, the row is taken over or the database
 * is away. Never rejects. Long work (db/budget.ts), whatever request started it.
 */
export function workLeased(db: Db, work: InstanceWork, job: LeasedJob, id: number, token: string): Promise<void> {
  return asLongWork(() => workUnderLease(db, work, job, id, token));
}

async function workUnderLease(db: Db, work: InstanceWork, job: LeasedJob, id: number, token: string): Promise<void> {
  const lease = holdLease(db, work, job.table, id, token);
  try {
    await job.work(id, lease, () => stillOwned(db, job.table, id, lease));
  } catch (error) {
    // An outage leaves the row running: its lease runs out and an instance takes it over later.
    if (lease.lost()) return;
    if (isUnanswered(error)) return work.outages.failed(`working on ${job.kind}s`, error);
    logUnexpected(`${job.kind} ${id} failed`, error);
    await job.fail(id, token, error).catch((failure: unknown) => logUnexpected(`marking ${job.kind} ${id} failed`, failure));
  } finally {
    lease.release();
  }
}

/**
 * Takes over rows whose lease ran out (their instance died or stalled) and works on them here, at
 * most `work.claimsPerTick` at a time: an instance that comes back to a backlog takes a share of
 * it, and the instances beside it take the rest on their own ticks. SKIP LOCKED lets instances
 * claim side by side without waiting on each other.
 */
export async function recoverExpired(db: Db, work: InstanceWork, job: LeasedJob): Promise<number[]> {
  const taken: number[] = [];
  while (taken.length < work.claimsPerTick) {
    const claimed = await claimExpired(db, work, job.table);
    if (claimed === null) break;
    taken.push(claimed.id);
    // Never awaited: workLeased never rejects, and this logs anything that slips past it.
    workLeased(db, work, job, claimed.id, claimed.token).catch((error: unknown) => logUnexpected(`${job.kind} ${claimed.id}`, error));
  }
  return taken;
}
