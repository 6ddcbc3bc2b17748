import { sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { rowsOf } from "@/db/rows";
import { isUnanswered } from "@/db/outage";
import { logUnexpected } from "../log";
import { daysBefore, utcDay, type UtcDay } from "../usage/rollups";

/*
 * Raw telemetry events live in one partition of `telemetry_events` per UTC day, named
 * `telemetry_events_YYYYMMDD`, beside a DEFAULT partition that holds what arrives for a day with no
 * partition yet (db/migrations/0034_telemetry_partitions.sql). Why a default partition, and what
 * retention means with whole days: docs/decisions/telemetry-partitions.md.
 */

/** Takes changes to the partitions one at a time, whatever the instance: making a day's, dropping old ones. */
const PARTITIONS_LOCK = 7_310_040;

/**
 * How many days back a batch's events get their partition made on the spot. Claude Code sends
 * within seconds; an older event waits in the default partition until the background tick gives
 * its day a partition, so one odd batch never makes a request create dozens of tables.
 */
const CATCH_UP_DAYS = 7;

/** Partitions the background tick keeps made ahead: today's and the next two days'. */
const DAYS_AHEAD = 2;

/** Days of the default partition one tick gives a partition of their own (a month of a new demo's history in one go). */
const ADOPTED_PER_TICK = 31;

/**
 * How long making or dropping a partition waits for the table's locks: a DROP needs the table to
 * itself, and every read of it queues behind a DROP that waits. Past this the change is left for
 * the next try; nothing is lost meanwhile.
 */
const LOCK_WAIT = "3s";

/** `SQLSTATE` lock_not_available: `LOCK_WAIT` ran out. */
const LOCK_NOT_AVAILABLE = "55P03";

/**
 * The days this instance knows have a partition, held on the App (one per instance): once a
 * day's partition is known, the receiver asks the database nothing more about it.
 */
export class TelemetryPartitions {
  private readonly known = new Set<UtcDay>();

  /** Of `days`, those not known to have a partition, each once. */
  unknown(days: Iterable<UtcDay>): UtcDay[] {
    return [...new Set(days)].filter((day) => !this.known.has(day));
  }

  remember(days: Iterable<UtcDay>): void {
    for (const day of days) this.known.add(day);
  }

  forget(days: Iterable<UtcDay>): void {
    for (const day of days) this.known.delete(day);
  }
}

/**
 * The days a batch's events need a partition for: each UTC day they fall on, from
 * `CATCH_UP_DAYS` before `now` to the day after (lib/telemetry/events.ts takes no time further
 * ahead than that). Events outside are stored in the default partition.
 */
export function partitionDaysOf(events: readonly { at: Date }[], now: Date): UtcDay[] {
  const from = daysBefore(now, CATCH_UP_DAYS);
  const to = daysBefore(now, -1);
  const days = new Set<UtcDay>();
  for (const event of events) {
    const day = utcDay(event.at);
    if (day >= from && day <= to) days.add(day);
  }
  return [...days];
}

/**
 * Makes the partitions of `days` that do not exist yet, moving into each any rows of its day the
 * default partition holds (PostgreSQL refuses a new partition while the default holds rows of its
 * range). Costs nothing once `known` has every day; otherwise one read, and a short transaction
 * under an advisory lock when a day is missing, so instances and requests making the same day at
 * once make it once. Best called with the database, before the batch's transaction: the
 * partition is then made and committed on its own. Called with a transaction, the work runs in a
 * savepoint of it, and should that transaction roll back, the days' events go to the default
 * partition until the background tick makes them.
 *
 * Never fails a batch over a partition: should making one fail for any reason but the database
 * being away, that is logged and the batch's events of that day go to the default partition,
 * where they are stored and counted all the same, and the next call tries again.
 */
export async function ensureTelemetryPartitions(db: Db, days: Iterable<UtcDay>, known: TelemetryPartitions): Promise<void> {
  const wanted = known.unknown(days);
  if (wanted.length === 0) return;
  try {
    known.remember(await makeTelemetryPartitions(db, wanted));
  } catch (error) {
    if (isUnanswered(error)) throw error;
    logUnexpected(`making the telemetry partitions of ${wanted.join(", ")}`, error);
  }
}

/** `days`' partitions, made where missing: the days that now have one (all of them). */
async function makeTelemetryPartitions(db: Db, days: UtcDay[]): Promise<UtcDay[]> {
  const existing = await partitionedDays(db, days);
  if (existing.length === days.length) return days;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${PARTITIONS_LOCK})`);
    await waitingForLocksAtMost(tx, async () => {
      // Read again under the lock: another instance may have made them meanwhile.
      const made = new Set(await partitionedDays(tx, days));
      for (const day of days) if (!made.has(day)) await makePartition(tx, day);
    });
  });
  return days;
}

/**
 * One day's partition, made beside the table and then attached: attaching takes a lock that lets
 * inserts and reads go on (creating it as a partition would take the whole table), and lets the
 * rows of its day the default partition holds move in first.
 */
async function makePartition(tx: Db, day: UtcDay): Promise<void> {
  const name = partitionName(day);
  const { from, to } = bounds(day);
  // Nothing may add a row of this day to the default partition between the move and the attach.
  await tx.execute(sql`lock table telemetry_events_default in access exclusive mode`);
  await tx.execute(sql`create table ${name} (like telemetry_events including defaults)`);
  await tx.execute(sql`
    with moved as (delete from telemetry_events_default where at >= ${from} and at < ${to} returning *)
    insert into ${name} select * from moved`);
  await tx.execute(sql`alter table telemetry_events attach partition ${name} for values from (${from}) to (${to})`);
}

/** What the trim did: the days whose partitions it dropped, and the rows it deleted one by one. */
export interface TrimmedTelemetry {
  droppedDays: UtcDay[];
  deletedRows: number;
}

/**
 * Retention, in whole UTC days: a day's raw events go once the whole day is older than the
 * team's `telemetry_days`; the daily counts and per-prompt rollups stay. Days past every team's
 * retention go by dropping their partitions. A team that keeps less than the longest retention has
 * its own rows of the days kept for others deleted, in slices, as are old rows in the default
 * partition: both rare. `known` (the App's) forgets the days dropped.
 */
export async function trimTelemetry(db: Db, now = new Date(), known?: TelemetryPartitions): Promise<TrimmedTelemetry> {
  const droppedDays = await dropPastPartitions(db, now);
  known?.forget(droppedDays);
  return { droppedDays, deletedRows: await deletePastRows(db, now) };
}

/** The partitions of days past the longest retention of any team, dropped one at a time. */
async function dropPastPartitions(db: Db, now: Date): Promise<UtcDay[]> {
  const result = await db.execute(sql`select coalesce(max(telemetry_days), 30)::int as days from teams`);
  const [row] = rowsOf<{ days: number }>(result);
  const keptFrom = daysBefore(now, row?.days ?? 30);
  const past = (await partitionedDays(db)).filter((day) => day < keptFrom);
  const dropped: UtcDay[] = [];
  for (const day of past) {
    try {
      await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${PARTITIONS_LOCK})`);
        await waitingForLocksAtMost(tx, () => tx.execute(sql`drop table if exists ${partitionName(day)}`));
      });
    } catch (error) {
      // Reads held the table for longer than LOCK_WAIT: the next tick drops what is left.
      if (codeOf(error) === LOCK_NOT_AVAILABLE) break;
      throw error;
    }
    dropped.push(day);
  }
  return dropped;
}

/**
 * A team's rows of whole days past its own retention: in the partitions kept for teams that keep
 * longer, and in the default partition. In slices, so a team that shortens a long retention never
 * holds a long lock.
 */
async function deletePastRows(db: Db, now: Date): Promise<number> {
  const slice = 5000;
  let deleted = 0;
  for (;;) {
    const result = await db.execute(sql`
      with old as (
        select e.team_id, e.event_key, e.at from telemetry_events e join teams t on t.id = e.team_id
        where e.at < ((${now.toISOString()}::timestamptz at time zone 'UTC')::date - t.telemetry_days)::timestamp at time zone 'UTC'
        limit ${slice}
      ),
      gone as (
        delete from telemetry_events e using old
        where e.team_id = old.team_id and e.event_key = old.event_key and e.at = old.at
        returning 1
      )
      select count(*)::int as n from gone`);
    const [row] = rowsOf<{ n: number }>(result);
    const count = row?.n ?? 0;
    deleted += count;
    if (count < slice) return deleted;
  }
}

/**
 * The background tick's part (lib/root/boot.ts), after the trim: partitions for today and the
 * next `DAYS_AHEAD` days, so the receiver finds them made, and for days whose events wait in the
 * default partition (sent late, or written with no partition made), which move into them.
 */
export async function prepareTelemetryPartitions(db: Db, known: TelemetryPartitions, now = new Date()): Promise<void> {
  const ahead = Array.from({ length: DAYS_AHEAD + 1 }, (_, n) => daysBefore(now, -n));
  const result = await db.execute(sql`
    select distinct to_char(at at time zone 'UTC', 'YYYY-MM-DD') as day from telemetry_events_default
    order by day desc limit ${ADOPTED_PER_TICK}`);
  const waiting = rowsOf<{ day: UtcDay }>(result).map((row) => row.day);
  // The default partition's days are made even when this instance believes they exist: rows wait there because they do not.
  known.forget(waiting);
  await ensureTelemetryPartitions(db, [...ahead, ...waiting], known);
}

/** The days of `telemetry_events`' day partitions: all of them, or those of `among`. */
async function partitionedDays(db: Db, among?: readonly UtcDay[]): Promise<UtcDay[]> {
  const names = among ? sql`and c.relname in (select json_array_elements_text(${JSON.stringify(among.map(nameOf))}::json))` : sql``;
  const result = await db.execute(sql`
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'telemetry_events'::regclass and c.relname ~ '^telemetry_events_[0-9]{8}$' ${names}`);
  return rowsOf<{ name: string }>(result)
    .map((row) => dayOf(row.name))
    .sort();
}

/** Runs `work` with the transaction's lock waits bounded by `LOCK_WAIT`, as the caller's were after it. */
async function waitingForLocksAtMost<T>(tx: Db, work: () => Promise<T>): Promise<T> {
  const result = await tx.execute(sql`select current_setting('lock_timeout') as before`);
  const [row] = rowsOf<{ before: string }>(result);
  await tx.execute(sql`select set_config('lock_timeout', ${LOCK_WAIT}, true)`);
  const done = await work();
  await tx.execute(sql`select set_config('lock_timeout', ${row?.before ?? "0"}, true)`);
  return done;
}

const DAY_FORMAT = /^\d{4}-\d{2}-\d{2}$/;

/** The day, checked: it goes into table names and DDL literals. */
function checked(day: UtcDay): UtcDay {
  if (!DAY_FORMAT.test(day)) throw new Error(`not a UTC day: ${day}`);
  return day;
}

function nameOf(day: UtcDay): string {
  return `telemetry_events_${checked(day).replaceAll("-", "")}`;
}

function partitionName(day: UtcDay) {
  return sql.identifier(nameOf(day));
}

function dayOf(name: string): UtcDay {
  const digits = name.slice("telemetry_events_".length);
  return `${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6, 8)}` as UtcDay;
}

/**
 * A day's range as literals: DDL takes no parameters, and `+00` keeps the bounds in UTC whatever
 * the session's time zone.
 */
function bounds(day: UtcDay): { from: SQL; to: SQL } {
  const next = utcDay(new Date(Date.parse(`${checked(day)}T00:00:00Z`) + 86_400_000));
  return { from: sql.raw(`'${day} 00:00:00+00'`), to: sql.raw(`'${next} 00:00:00+00'`) };
}

function codeOf(error: unknown): unknown {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}
