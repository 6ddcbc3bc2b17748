import { readFileSync } from "node:fs";
import path from "node:path";
import { MIGRATIONS_FOLDER, openDatabase, type Database } from "@/db/client";
import { asLongWork } from "@/db/budget";
import { env } from "../env";
import { applyInitConfig } from "../teams/init";
import { seedDemo } from "../demo/seed";
import { planDemo } from "../demo/plan";
import type { App } from "../contracts/app";
import { createApp } from "./app";
import { copyPgliteTemplate, isFreshPgliteFolder } from "./pglite-template";
import { StartUpSteps } from "./start-up-steps";
import { modelFromConfig } from "../evolution/model";
import { recoverEvaluations } from "../evolution/evaluate";
import { recoverRuns } from "../activation/runs";
import { deleteAbandonedStaging } from "../skills/sync";
import { smtpMailer } from "../mail/mailer";
import { deleteExpiredSessions } from "../auth/dashboard-sessions";
import { deleteIdleMcpSessions } from "../mcp/sessions";
import { deleteStaleSignInFailures } from "../auth/sign-in-throttle";
import { deleteUnusedClients } from "../oauth/clients";
import { announceTypedOnly } from "../usage/typed-only";
import { prepareTelemetryPartitions, trimTelemetry } from "../telemetry/partitions";

/**
 * Opens, migrates and seeds the database, builds the App and starts its background ticks: long
 * work (db/budget.ts), whichever request first asked for the App.
 */
export function boot(): Promise<App> {
  return asLongWork(bootNow);
}

async function bootNow(): Promise<App> {
  const config = env();
  const steps = new StartUpSteps();
  const fresh = !config.databaseUrl && isFreshPgliteFolder(config.dataDir);
  steps.begin("opening", `${fresh ? "creating" : "opening"} the database (${describeDatabase(config)})`);
  if (fresh) await copyPgliteTemplate(config.dataDir);
  const database = await openDatabase({
    url: config.databaseUrl,
    unpooledUrl: config.databaseUrlUnpooled,
    poolSize: config.poolSize,
    queueMs: config.queueMs,
    dataDir: config.dataDir,
    neon: config.neonDriver,
    statementTimeoutMs: config.statementTimeoutMs,
  });
  console.log(`skillgate: database: ${database.uses}`);
  let app: App | undefined;
  try {
    steps.begin("migrating", await describeMigrations(database));
    await database.migrate();
    steps.begin("configuring", "loading skills, applying the start-up teams, keys and users");
    const demo = await planDemo(database.db, config);
    app = createApp({
      database,
      builtinSkillsDir: config.builtinSkillsDir,
      globalSkillsDir: demo.globalSkillsDir,
      rateLimitPerMinute: config.rateLimitPerMinute,
      viewBatch: { batchSize: 500, intervalMs: config.viewFlushMs },
      model: modelFromConfig(config.model),
      judgeConcurrency: config.judgeConcurrency,
      sessionPolicy: config.sessions,
      mailer: config.mail ? smtpMailer(config.mail.smtpUrl, config.mail.from) : null,
      leaseMs: config.leaseSeconds * 1000,
      flushViewsAfterResponse: config.flushViewsAfterResponse,
    });
    await deleteExpiredSessions(app.db, app.sessionPolicy);
    await applyInitConfig(app.db, config.init);
    if (demo.login) await applyInitConfig(app.db, demo.login);
    if (demo.seed) await seedDemo(app, { onSeeding: () => steps.begin("seeding", "seeding the demo team (first start only)") });
    if (demo.notice) console.log(`skillgate: ${demo.notice}`);
    steps.begin("recovering", "taking over unfinished runs and evaluations");
    // Runs and evaluations another instance (or this one, before a restart) left behind are taken
    // over, now and whenever a lease runs out; work a live instance holds is left to it (issue 14).
    // The same tick forgets what has expired: idle MCP sessions, sign-in failures past their window,
    // the staged text of a sync whose instance died before its switch, OAuth clients that never
    // connected within a day. Once a minute it tells leads of skills newly used only by /name.
    const running = app;
    let telemetryTrimmedAt = 0;
    let typedOnlyAt = 0;
    const tick = async () => {
      await recoverRuns(running);
      await recoverEvaluations(running);
      await deleteIdleMcpSessions(running.db);
      await deleteStaleSignInFailures(running.db);
      await deleteAbandonedStaging(running.db, running.catalogs.leftoverSyncs);
      await deleteUnusedClients(running.db);
      // Raw telemetry past each team's retention (docs/telemetry.md#storage-and-retention), at start and hourly after; the daily counts
      // stay. Then the partitions of the next days, made before the receiver needs them.
      if (Date.now() - telemetryTrimmedAt >= 3_600_000) {
        await trimTelemetry(running.db, new Date(), running.telemetryPartitions);
        await prepareTelemetryPartitions(running.db, running.telemetryPartitions);
        telemetryTrimmedAt = Date.now();
      }
      if (Date.now() - typedOnlyAt >= 60_000) {
        await announceTypedOnly(running);
        typedOnlyAt = Date.now();
      }
    };
    await tick();
    app.work.every(app.work.leaseMs / 2, "the background tick", tick);
    closeOnSignals(app);
    console.log(`skillgate: database ready (${database.kind}, ${database.location}) in ${steps.summary()}`);
    return app;
  } catch (error) {
    app?.work.stopAll();
    await database.close().catch(() => {});
    throw error;
  }
}

/** Where the database is, with no password. */
function describeDatabase(config: { databaseUrl?: string; dataDir: string; neonDriver: boolean }): string {
  if (!config.databaseUrl) return `PGlite in ${config.dataDir.startsWith("memory://") ? config.dataDir : path.resolve(config.dataDir)}`;
  const url = new URL(config.databaseUrl);
  const neon = config.neonDriver || url.hostname.endsWith(".neon.tech");
  return `${neon ? "Neon" : "PostgreSQL"} at ${url.hostname}:${url.port || "5432"}${url.pathname}`;
}

/** "migrating (24 of 24 migrations to apply)", or that there are none to apply. */
async function describeMigrations(database: Database): Promise<string> {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as { entries: unknown[] };
  const total = journal.entries.length;
  // drizzle's own record of what it applied; a database that has none yet has no such table.
  const applied = await database
    .query<{ n: number }>("select count(*)::int as n from drizzle.__drizzle_migrations", [])
    .then((rows) => rows[0]?.n ?? 0)
    .catch(() => 0);
  const pending = Math.max(total - applied, 0);
  return pending > 0 ? `migrating (${pending} of ${total} migrations to apply)` : `checking migrations (all ${total} applied)`;
}

/** How long a shutdown may take before the process ends anyway: SIGTERM ends it within 10 s in every state (docs/outages.md#shutdown). */
const SHUTDOWN_MS = 8_000;

/** A clean shutdown writes the buffered views and closes the database (PGlite must be closed). */
function closeOnSignals(app: App): void {
  let closing = false;
  const close = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    const code = signal === "SIGINT" ? 130 : 143;
    setTimeout(() => {
      console.error(
        `skillgate: shutdown: not done after ${SHUTDOWN_MS / 1000} s; exiting with ${app.views.pending} skill view(s) unwritten`,
      );
      process.exit(code);
    }, SHUTDOWN_MS);
    app
      .close()
      .catch((error: unknown) => console.error("skillgate: shutdown:", error))
      .finally(() => process.exit(code));
  };
  process.once("SIGTERM", close);
  process.once("SIGINT", close);
}
