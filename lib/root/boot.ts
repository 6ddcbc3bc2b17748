import { openDatabase } from "@/db/client";
import { env } from "../env";
import { applyInitConfig } from "../teams/init";
import { seedDemo } from "../demo/seed";
import { createApp, type App } from "./app";
import { modelFromConfig } from "../evolution/model";
import { recoverEvaluations } from "../evolution/evaluate";
import { recoverRuns } from "../activation/runs";
import { deleteAbandonedStaging } from "../skills/sync";
import { smtpMailer } from "../mail/mailer";
import { deleteExpiredSessions } from "../auth/dashboard-sessions";
import { deleteIdleMcpSessions } from "../mcp/sessions";
import { deleteStaleSignInFailures } from "../auth/sign-in-throttle";

/** Opens, migrates and seeds the database, builds the App and starts its background ticks. */
export async function boot(): Promise<App> {
  const config = env();
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    neon: config.neonDriver,
    statementTimeoutMs: config.statementTimeoutMs,
  });
  let app: App | undefined;
  try {
    await database.migrate();
    app = createApp({
      database,
      builtinSkillsDir: config.builtinSkillsDir,
      globalSkillsDir: config.globalSkillsDir,
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
    if (config.demo) await seedDemo(app);
    // Runs and evaluations another instance (or this one, before a restart) left behind are taken
    // over, now and whenever a lease runs out; work a live instance holds is left to it (issue 14).
    // The same tick forgets what has expired: idle MCP sessions, sign-in failures past their window,
    // the staged text of a sync whose instance died before its switch.
    const running = app;
    const tick = async () => {
      await recoverRuns(running);
      await recoverEvaluations(running);
      await deleteIdleMcpSessions(running.db);
      await deleteStaleSignInFailures(running.db);
      await deleteAbandonedStaging(running.db);
    };
    await tick();
    app.work.every(app.work.leaseMs / 2, tick);
    closeOnSignals(app);
    console.log(`skillgate: database ready (${database.kind}, ${database.location})`);
    return app;
  } catch (error) {
    app?.work.stopAll();
    await database.close().catch(() => {});
    throw error;
  }
}

/** A clean shutdown writes the buffered views and closes the database (PGlite must be closed). */
function closeOnSignals(app: App): void {
  let closing = false;
  const close = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    app
      .close()
      .catch((error: unknown) => console.error("skillgate: shutdown:", error))
      .finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
  };
  process.once("SIGTERM", close);
  process.once("SIGINT", close);
}
