import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { evalRuns, evaluations } from "@/db/schema";
import type { InstanceWork } from "./work";

/**
 * Leases on long work kept as rows — activation runs and evaluations (issue 14). The instance
 * working on a row holds its lease and renews it; when an instance dies its leases run out, and
 * any instance claims the row and goes on from what was written. Every write the work makes is
 * idempotent, so an instance that stalls past its lease and wakes up does no harm.
 */

export type LeasedTable = typeof evalRuns | typeof evaluations;

export interface Lease {
  /** The row ended or another instance holds it now. */
  lost(): boolean;
  /** Stops renewing (the work is over, one way or another). */
  release(): void;
}

export function leaseEnd(work: InstanceWork): Date {
  return new Date(Date.now() + work.leaseMs);
}

export function holdLease(db: Db, work: InstanceWork, table: LeasedTable, id: number): Lease {
  let lost = false;
  const stop = work.every(work.leaseMs / 3, async () => {
    const kept = await db
      .update(table)
      .set({ leaseUntil: leaseEnd(work) })
      .where(and(eq(table.id, id), eq(table.leaseOwner, work.instanceId), eq(table.status, "running")))
      .returning({ id: table.id });
    if (kept.length === 0) lost = true;
  });
  return { lost: () => lost, release: stop };
}

/** Whether this instance should go on: the row is still running (not cancelled from any instance) and still its own. */
export async function stillOwned(db: Db, work: InstanceWork, table: LeasedTable, id: number, lease: Lease): Promise<boolean> {
  if (lease.lost()) return false;
  const [row] = await db.select({ status: table.status, owner: table.leaseOwner }).from(table).where(eq(table.id, id));
  return row?.status === "running" && row.owner === work.instanceId;
}

/** Claims one running row whose lease ran out (or never was), for this instance; null when there is none. */
export async function claimExpired(db: Db, work: InstanceWork, table: LeasedTable): Promise<number | null> {
  const [claimed] = await db
    .update(table)
    .set({ leaseOwner: work.instanceId, leaseUntil: leaseEnd(work) })
    .where(
      eq(
        table.id,
        sql`(select ${table.id} from ${table} where ${table.status} = 'running'
               and (${table.leaseUntil} is null or ${table.leaseUntil} < now())
             order by ${table.id} limit 1 for update skip locked)`,
      ),
    )
    .returning({ id: table.id });
  return claimed?.id ?? null;
}
