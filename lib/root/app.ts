import path from "node:path";
import type { Database } from "@/db/client";
import type { App } from "../contracts/app";
import { CatalogCache } from "../skills/catalog-cache";
import type { StaticCatalog } from "../skills/catalog";
import { loadSkillFolders } from "../skills/folders";
import { ViewRecorder } from "../usage/view-recorder";
import type { ConfiguredModel } from "../evolution/model";
import type { SessionPolicy } from "../auth/dashboard-sessions";
import type { Mailer } from "../mail/mailer";
import { SharedRateLimit } from "../security/rate-limit";
import { InstanceWork } from "../jobs/work";
import { releaseLeases } from "../jobs/leases";
import { SignInThrottle } from "../auth/sign-in-throttle";
import { REGISTRATIONS_PER_HOUR } from "../oauth/clients";
import { KeyAuthCache, STALE_MAX_MS } from "../auth/key-cache";
import { LastAnswers } from "../answer-store";
import { WebhookSender, webhookOptions, type WebhookOptions } from "../webhooks/sender";
import { TelemetryPartitions } from "../telemetry/partitions";
import { RecentPairs } from "../usage/recent-pairs";

export interface AppOptions {
  database: Database;
  builtinSkillsDir: string;
  globalSkillsDir?: string;
  rateLimitPerMinute?: number;
  viewBatch?: { batchSize: number; intervalMs: number };
  model?: ConfiguredModel | null;
  judgeConcurrency?: number;
  sessionPolicy?: SessionPolicy;
  mailer?: Mailer | null;
  /** How long a lease on a run or evaluation lasts without renewal (default 30 s). */
  leaseMs?: number;
  /** How many expired runs (and evaluations) one tick takes over (default 4). */
  claimsPerTick?: number;
  flushViewsAfterResponse?: boolean;
  /** Timings of webhook deliveries (lib/webhooks/sender.ts); tests shorten them. */
  webhooks?: Partial<WebhookOptions>;
}

/** ASVS level 2 (V3.3.2): 30 idle minutes, 12 hours in all. */
export const DEFAULT_SESSION_POLICY: SessionPolicy = { idleMs: 30 * 60_000, maxMs: 12 * 3_600_000 };

export function loadStaticCatalog(builtinSkillsDir: string, globalSkillsDir?: string): StaticCatalog {
  const builtin = loadSkillFolders(path.resolve(builtinSkillsDir), "builtin");
  if (builtin.invalid.length > 0) {
    // The skills we ship must be valid; a broken one is our bug, not the team's.
    const lines = builtin.invalid.flatMap((folder) => folder.errors.map((error) => `${folder.folder}: ${error}`));
    throw new Error(`built-in skills are invalid:\n${lines.join("\n")}`);
  }
  const global = globalSkillsDir ? loadSkillFolders(path.resolve(globalSkillsDir), "global") : { skills: [], invalid: [] };
  return { skills: [...builtin.skills, ...global.skills], invalid: global.invalid };
}

export function createApp(options: AppOptions): App {
  const { database } = options;
  const statics = loadStaticCatalog(options.builtinSkillsDir, options.globalSkillsDir);
  const perMinute = options.rateLimitPerMinute ?? 0;
  const work = new InstanceWork(options.leaseMs, options.claimsPerTick);
  const views = new ViewRecorder(database.db, options.viewBatch, work.outages);
  const keys = new KeyAuthCache(database, database.teamChanges);
  const lastAnswers = new LastAnswers(STALE_MAX_MS);
  const webhooks = new WebhookSender(database.db, work, options.mailer ?? null, webhookOptions(work.leaseMs, options.webhooks));
  webhooks.start(database.teamChanges);
  return {
    database,
    db: database.db,
    catalogs: new CatalogCache(database.db, statics),
    keys,
    lastAnswers,
    views,
    recentPairs: new RecentPairs(database.db),
    telemetryPartitions: new TelemetryPartitions(),
    limiter: perMinute > 0 ? new SharedRateLimit(database.db, perMinute) : null,
    registrations: new SharedRateLimit(database.db, REGISTRATIONS_PER_HOUR, 3600),
    signInThrottle: new SignInThrottle(database.db),
    sessionPolicy: options.sessionPolicy ?? DEFAULT_SESSION_POLICY,
    model: options.model ?? null,
    judgeConcurrency: options.judgeConcurrency ?? 4,
    mailer: options.mailer ?? null,
    work,
    webhooks,
    flushViewsAfterResponse: options.flushViewsAfterResponse ?? false,
    close: async () => {
      work.stopAll();
      await webhooks.close();
      keys.close();
      lastAnswers.clear();
      await releaseLeases(database.db, work).catch(() => {
        // The database is away: the leases run out on their own.
      });
      await views.flush();
      // A flush that could not write keeps the views for a retry that will not come.
      if (views.pending > 0) console.error(`skillgate: shutdown: ${views.pending} skill view(s) could not be written and are lost`);
      await database.close();
    },
  };
}
