import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MIGRATIONS_FOLDER, openDatabase, type Database, type Db } from "@/db/client";
import { rowsOf } from "@/db/rows";
import { skillActivationDays, skillActivationPeople, telemetryDays } from "@/db/schema";
import { createApiKey } from "@/lib/auth/api-keys";
import { ensureTelemetryPartitions, prepareTelemetryPartitions, TelemetryPartitions, trimTelemetry } from "@/lib/telemetry/partitions";
import type { TeamId } from "@/lib/teams/teams";
import { daysBefore, utcDay, type UtcDay } from "@/lib/usage/rollups";
import { anotherInstance, useTestApp } from "../helpers/app";
import { testDbKinds, type TestDbKind } from "../helpers/db";
import { httpBridge, type HttpBridge } from "../helpers/http-bridge";
import { scratchDatabase } from "../helpers/scratch-database";
import { countStatements } from "../helpers/statement-counter";
import { claudeCodeLogs, type ClaudeCodeSession, type LogSender } from "../helpers/telemetry";

/**
 * Raw telemetry in one partition per UTC day (lib/telemetry/partitions.ts): made as events arrive
 * and ahead of them, dropped for retention, and the default partition that keeps what arrives for
 * a day with none. Events are sent by the OpenTelemetry SDK's own exporter through a real HTTP
 * server; partitions are read from the catalog (pg_inherits), rows from where they are stored.
 */

const DAY = 86_400_000;
const ANA = { email: "ana@example.com", accountUuid: "0d1c2b3a-0000-4000-8000-00000000000a" };

/** Noon UTC `days` days before today: whole days away from any midnight the test might cross. */
function daysAgo(days: number): Date {
  return new Date(Date.parse(`${utcDay(new Date())}T12:00:00.000Z`) - days * DAY);
}

const dayOf = (days: number): UtcDay => utcDay(daysAgo(days));
const partitionOf = (day: UtcDay) => `telemetry_events_${day.replaceAll("-", "")}`;
const ahead = () => [0, 1, 2].map((n) => daysBefore(new Date(), -n));

async function selectRows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  return rowsOf<T>(await db.execute(query));
}

/** The days that have a partition of their own, oldest first. */
async function dayPartitions(db: Db): Promise<UtcDay[]> {
  const rows = await selectRows<{ name: string }>(
    db,
    sql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where i.inhparent = 'telemetry_events'::regclass and c.relname <> 'telemetry_events_default'`,
  );
  return rows.map((row) => `${row.name.slice(17, 21)}-${row.name.slice(21, 23)}-${row.name.slice(23, 25)}` as UtcDay).sort();
}

/** How many rows each partition holds, by partition name: where each event was stored. */
async function rowsByPartition(db: Db): Promise<Record<string, number>> {
  const rows = await selectRows<{ name: string; n: number }>(
    db,
    sql`select tableoid::regclass::text as name, count(*)::int as n from telemetry_events group by 1 order by 1`,
  );
  return Object.fromEntries(rows.map((row) => [row.name, row.n]));
}

describe.each(testDbKinds)("telemetry partitions, on %s", (kind) => {
  const t = useTestApp(kind);
  let bridge: HttpBridge;
  let closing: LogSender[] = [];

  // Each test starts with no day partition at all (the rows went with the reset): what it finds is what it made.
  beforeEach(async () => {
    for (const day of await dayPartitions(t.app.db)) await t.app.db.execute(sql`drop table ${sql.identifier(partitionOf(day))}`);
    bridge = await httpBridge();
  });
  afterEach(async () => {
    await Promise.all(closing.map((sender) => sender.close()));
    closing = [];
    await bridge.close();
    vi.restoreAllMocks();
  });

  async function sender(teamId: TeamId = t.alpha.team.id): Promise<LogSender> {
    const { key } = await createApiKey(t.app.db, { teamId, name: "claude code", scopes: ["telemetry"] });
    const logs = claudeCodeLogs({ endpoint: `${bridge.url}/api/otlp`, key });
    closing.push(logs);
    return logs;
  }

  const session = (sessionId: string): ClaudeCodeSession => ({ sessionId, person: ANA, sequence: 0 });

  /** One activation on each of these days (noon UTC), in one batch. */
  async function activationsOn(days: number[], teamId: TeamId = t.alpha.team.id): Promise<void> {
    const logs = await sender(teamId);
    const one = session(`session-${teamId}`);
    for (const n of days)
      logs.skillActivated(one, { skill: "writing-plans", trigger: "claude-proactive", promptId: `p${n}`, at: daysAgo(n) });
    await logs.flush();
  }

  const activationDays = (teamId: TeamId = t.alpha.team.id) =>
    t.app.db
      .select({ day: skillActivationDays.day, proactive: skillActivationDays.proactive, people: skillActivationDays.people })
      .from(skillActivationDays)
      .where(eq(skillActivationDays.teamId, teamId))
      .orderBy(skillActivationDays.day);

  /** Every rollup a trim must leave as it was. */
  const rollups = async () => ({
    activations: await t.app.db.select().from(skillActivationDays).orderBy(skillActivationDays.teamId, skillActivationDays.day),
    people: await t.app.db.select().from(skillActivationPeople).orderBy(skillActivationPeople.teamId, skillActivationPeople.day),
    received: await t.app.db.select().from(telemetryDays).orderBy(telemetryDays.teamId, telemetryDays.day),
  });

  const eventDays = async (teamId: TeamId) =>
    (
      await selectRows<{ day: string }>(
        t.app.db,
        sql`select to_char(at at time zone 'UTC', 'YYYY-MM-DD') as day from telemetry_events where team_id = ${teamId} order by at`,
      )
    ).map((row) => row.day);

  it("stores the events of three days each in the partition of its UTC day, made as the batch arrives", async () => {
    await activationsOn([5, 3, 1]);

    expect(await dayPartitions(t.app.db)).toEqual([dayOf(5), dayOf(3), dayOf(1)]);
    expect(await rowsByPartition(t.app.db)).toEqual({
      [partitionOf(dayOf(1))]: 1,
      [partitionOf(dayOf(3))]: 1,
      [partitionOf(dayOf(5))]: 1,
    });
    expect(await activationDays()).toEqual([
      { day: dayOf(5), proactive: 1, people: 0 },
      { day: dayOf(3), proactive: 1, people: 0 },
      { day: dayOf(1), proactive: 1, people: 1 },
    ]);
    // The instance now knows those days: the next batch of them asks the database nothing about partitions.
    expect(t.app.telemetryPartitions.unknown([dayOf(5), dayOf(3), dayOf(1), dayOf(2)])).toEqual([dayOf(2)]);
  });

  it("trims by dropping exactly the partitions past the longest retention, and keeps every rollup", async () => {
    await activationsOn([5, 3, 1], t.alpha.team.id);
    await activationsOn([5, 3, 1], t.beta.team.id);
    await prepareTelemetryPartitions(t.app.db, t.app.telemetryPartitions);
    expect(await dayPartitions(t.app.db)).toEqual([dayOf(5), dayOf(3), dayOf(1), ...ahead()]);
    for (const key of [t.alpha.key, t.beta.key]) {
      expect((await t.call("PATCH", "/api/v1/settings", { key, json: { telemetryDays: 4 } })).status).toBe(200);
    }
    const before = await rollups();

    // Both keep 4 days: the day of 5 days ago is wholly past it; the day of 3 days ago is not.
    expect(await trimTelemetry(t.app.db, new Date(), t.app.telemetryPartitions)).toEqual({ droppedDays: [dayOf(5)], deletedRows: 0 });
    expect(await dayPartitions(t.app.db)).toEqual([dayOf(3), dayOf(1), ...ahead()]);
    expect(await eventDays(t.alpha.team.id)).toEqual([dayOf(3), dayOf(1)]);
    expect(await eventDays(t.beta.team.id)).toEqual([dayOf(3), dayOf(1)]);
    expect(await rollups()).toEqual(before);
    expect(before.activations.length).toBe(6);
    expect(t.app.telemetryPartitions.unknown([dayOf(5), dayOf(3)])).toEqual([dayOf(5)]);
    expect(await trimTelemetry(t.app.db)).toEqual({ droppedDays: [], deletedRows: 0 });
  });

  it("deletes only the rows of a team whose retention is shorter than the longest, day by day", async () => {
    await activationsOn([5, 3, 1], t.alpha.team.id);
    await activationsOn([5, 3, 1], t.beta.team.id);
    expect((await t.call("PATCH", "/api/v1/settings", { key: t.beta.key, json: { telemetryDays: 2 } })).status).toBe(200);
    const before = await rollups();

    // alpha keeps 30 days, so every partition stays; beta's days of 5 and 3 days ago are wholly past its 2.
    expect(await trimTelemetry(t.app.db)).toEqual({ droppedDays: [], deletedRows: 2 });
    expect(await dayPartitions(t.app.db)).toEqual([dayOf(5), dayOf(3), dayOf(1)]);
    expect(await eventDays(t.alpha.team.id)).toEqual([dayOf(5), dayOf(3), dayOf(1)]);
    expect(await eventDays(t.beta.team.id)).toEqual([dayOf(1)]);
    expect(await rollups()).toEqual(before);
  });

  it("makes one partition, and raises nothing, when 16 requests of two instances make the same day at once", async () => {
    const day = dayOf(6);
    const other = anotherInstance(t.app);
    const caches = Array.from({ length: 16 }, () => new TelemetryPartitions());
    const errors = vi.spyOn(console, "error");

    await Promise.all(caches.map((cache, i) => ensureTelemetryPartitions((i % 2 === 0 ? t.app : other).db, [day], cache)));

    expect(errors).not.toHaveBeenCalled();
    expect(await dayPartitions(t.app.db)).toEqual([day]);
    for (const cache of caches) expect(cache.unknown([day])).toEqual([]);
    // Once a day is known, making sure of it again sends the database nothing.
    const counter = countStatements(t.app.db);
    await ensureTelemetryPartitions(t.app.db, [day, day], caches[0]!);
    counter.stop();
    expect(counter.count).toBe(0);
    await other.close();
  });

  it("stores and counts an event of a day with no partition, and moves it into the partition made for its day later", async () => {
    const late = { skill: "writing-plans", trigger: "claude-proactive" as const, promptId: "p10", at: daysAgo(10) };
    const logs = await sender();
    // Ten days late: past the days the receiver makes a partition for on the spot.
    logs.skillActivated(session("offline-laptop"), late);
    await logs.flush();
    expect(await dayPartitions(t.app.db)).toEqual([]);
    expect(await rowsByPartition(t.app.db)).toEqual({ telemetry_events_default: 1 });
    expect(await activationDays()).toEqual([{ day: dayOf(10), proactive: 1, people: 1 }]);
    const usage = (await (await t.call("GET", "/api/v1/usage")).json()) as { skills: { name: string; activations: object }[] };
    expect(usage.skills.find((skill) => skill.name === "writing-plans")?.activations).toEqual({ proactive: 1, slash: 0, nested: 0 });

    // The background tick gives its day a partition (PostgreSQL refuses one while the default holds a row of its day).
    await prepareTelemetryPartitions(t.app.db, t.app.telemetryPartitions);
    expect(await dayPartitions(t.app.db)).toEqual([dayOf(10), ...ahead()]);
    expect(await rowsByPartition(t.app.db)).toEqual({ [partitionOf(dayOf(10))]: 1 });

    // The exporter's retry of the same record, now in the day's partition: stored once, counted once.
    logs.skillActivated(session("offline-laptop"), late);
    await logs.flush();
    expect(await rowsByPartition(t.app.db)).toEqual({ [partitionOf(dayOf(10))]: 1 });
    expect(await activationDays()).toEqual([{ day: dayOf(10), proactive: 1, people: 1 }]);
  });

  it("converts a table that holds events in place: a partition for each of their days and the days ahead, the names the schema knows", async () => {
    const { database, drop } = await emptyDatabase(kind);
    const folder = migrationsUpTo("0032_production_evidence");
    try {
      await migrate(database, folder);
      const db = database.db;
      const [team] = await selectRows<{ id: number }>(db, sql`insert into teams (slug, name) values ('old', 'Old') returning id`);
      for (const [key, days] of [
        ["old-40", 40],
        ["old-3a", 3],
        ["old-3b", 3],
        ["old-0", 0],
      ] as const) {
        await db.execute(
          sql`insert into telemetry_events (team_id, event_key, kind, at) values (${team!.id}, ${key}, 'prompt', ${daysAgo(days).toISOString()})`,
        );
      }

      await database.migrate();

      expect(await dayPartitions(db)).toEqual([dayOf(40), dayOf(3), ...ahead()]);
      expect(await rowsByPartition(db)).toEqual({
        [partitionOf(dayOf(0))]: 1,
        [partitionOf(dayOf(3))]: 2,
        [partitionOf(dayOf(40))]: 1,
      });
      const names = await selectRows<{ name: string }>(
        db,
        sql`select indexname as name from pg_indexes where tablename = 'telemetry_events'
            union all select conname from pg_constraint where conrelid = 'telemetry_events'::regclass and contype in ('p', 'f')
            order by 1`,
      );
      expect(names.map((row) => row.name)).toEqual([
        "telemetry_events_session_prompt_idx",
        "telemetry_events_team_id_event_key_at_pk",
        "telemetry_events_team_id_event_key_at_pk",
        "telemetry_events_team_id_teams_id_fk",
        "telemetry_events_team_time_idx",
      ]);
      const [partitioned] = await selectRows<{ strategy: string }>(
        db,
        sql`select partstrat as strategy from pg_partitioned_table where partrelid = 'telemetry_events'::regclass`,
      );
      expect(partitioned).toEqual({ strategy: "r" });
    } finally {
      await database.close();
      await drop();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

/** A database with nothing in it yet: in-memory PGlite, or a new database on the test server. */
async function emptyDatabase(kind: TestDbKind): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (kind === "pglite") return { database: await openDatabase({ dataDir: "memory://" }), drop: async () => {} };
  const scratch = await scratchDatabase("skillgate_partitions");
  return { database: await openDatabase({ url: scratch.url }), drop: scratch.drop };
}

/** A copy of the migrations folder whose journal ends at `tag`: the database as it was before the later ones. */
function migrationsUpTo(tag: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), "skillgate-migrations-"));
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalPath = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { tag: string }[] };
  const end = journal.entries.findIndex((entry) => entry.tag === tag);
  if (end === -1) throw new Error(`no migration ${tag}`);
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, end + 1) }));
  return folder;
}

async function migrate(database: Database, migrationsFolder: string): Promise<void> {
  const migrator =
    database.kind === "pglite" ? await import("drizzle-orm/pglite/migrator") : await import("drizzle-orm/node-postgres/migrator");
  await (migrator.migrate as (db: Db, config: { migrationsFolder: string }) => Promise<void>)(database.db, { migrationsFolder });
}
