import { randomUUID } from "node:crypto";
import { and, eq, like, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { evalRuns, evaluations } from "@/db/schema";
import type { InstanceWork } from "./work";

/**
 * Leases on long work kept as rows — activation runs and evaluations (issue 14). The worker on a
 * row holds its lease and renews it; when its instance dies the lease runs out, and any instance
 * claims the row and goes on from what was written.
 *
 * The owner written on a lease is a token of one claim (`<instance>:<uuid>`), not the instance: an
 * instance that takes back a row it was itself still working on (its renewals delayed past the
 * lease) starts a new worker, and the old one sees the row is no longer its own and stops. Times
 * are the database's, so instances whose clocks differ agree on when a lease ends.
 */

export type LeasedTable = typeof evalRuns | typeof evaluations;

export interface Lease {
  /** The owner token written on the row for this worker. */
  token: string;
  /** The row ended or another worker holds it now (seen at the last renewal). */
  lost(): boolean;
  /** Stops renewing (the work is over, one way or another). */
  release(): void;
}

/** A new claim's owner token. */
export function leaseToken(work: InstanceWork): string {
  return `${work.instanceId}:${randomUUID()}`;
}

/** When a lease taken or renewed now ends, by the database's clock. */
export function leaseEnd(work: InstanceWork) {
  return sql`clock_timestamp() + ${work.leaseMs}::int * interval '1 millisecond'`;
}

export function holdLease(db: Db, work: InstanceWork, table: LeasedTable, id: number, token: string): Lease {
  let lost = false;
  const stop = work.every(work.leaseMs / 3, "renewing leases", async () => {
    const kept = await db
      .update(table)
      .set({ leaseUntil: leaseEnd(work) })
      .where(and(eq(table.id, id), eq(table.leaseOwner, token), eq(table.status, "running")))
      .returning({ id: table.id });
    if (kept.length === 0) lost = true;
  });
  return { token, lost: () => lost, release: stop };
}

/** Whether this worker should go on: the row is still running (not cancelled from any instance) and still its own. */
export async function stillOwned(db: Db, table: LeasedTable, id: number, lease: Lease): Promise<boolean> {
  if (lease.lost()) return false;
  const [row] = await db.select({ status: table.status, owner: table.leaseOwner }).from(table).where(eq(table.id, id));
  return row?.status === "running" && row.owner === lease.token;
}

/** Claims one running row whose lease ran out (or never was) with a new token; null when there is none. */
export async function claimExpired(db: Db, work: InstanceWork, table: LeasedTable): Promise<{ id: number; token: string } | null> {
  const token = leaseToken(work);
  const [claimed] = await db
    .update(table)
    .set({ leaseOwner: token, leaseUntil: leaseEnd(work) })
    .where(
      eq(
        table.id,
        sql`(select ${table.id} from ${table} where ${table.status} = 'running'
               and (${table.leaseUntil} is null or ${table.leaseUntil} < clock_timestamp())
             order by ${table.id} limit 1 for update skip locked)`,
      ),
    )
    .returning({ id: table.id });
  return claimed ? { id: claimed.id, token } : null;
}

/**
 * On a clean shutdown: the leases this instance holds end now, so another instance (or this one
 * after its restart) takes the work over at once instead of a lease later.
 */
export async function releaseLeases(db: Db, work: InstanceWork): Promise<void> {
  const mine = `${work.instanceId}:%`;
  for (const table of [evalRuns, evaluations] as LeasedTable[]) {
    await db
      .update(table)
      .set({ leaseUntil: sql`clock_timestamp()` })
      .where(and(eq(table.status, "running"), like(table.leaseOwner, mine)));
  }
}
