import type { Database, Db } from "@/db/client";
import type { LastAnswers } from "../answer-store";
import type { SessionPolicy } from "../auth/dashboard-sessions";
import type { KeyAuthCache } from "../auth/key-cache";
import type { SignInThrottle } from "../auth/sign-in-throttle";
import type { ConfiguredModel } from "../evolution/model";
import type { InstanceWork } from "../jobs/work";
import type { Mailer } from "../mail/mailer";
import type { SharedRateLimit } from "../security/rate-limit";
import type { CatalogCache } from "../skills/catalog-cache";
import type { TelemetryPartitions } from "../telemetry/partitions";
import type { RecentPairs } from "../usage/recent-pairs";
import type { ViewRecorder } from "../usage/view-recorder";
import type { WebhookSender } from "../webhooks/sender";

/**
 * Everything a request needs that lives as long as the process: the database, the skills read
 * from disk at start-up, the caches and the view buffer. Route handlers get it from `getApp()`;
 * tests build their own with `createApp`. The composition root builds it (lib/root/app.ts); its
 * type is here, below delivery, so that no layer names the root for a type (issue 42).
 */
export interface App {
  database: Database;
  db: Db;
  catalogs: CatalogCache;
  /** What each API key authenticates as, forgotten when its team or keys change. */
  keys: KeyAuthCache;
  /** What agents read, as last answered here: served, marked stale, while the database is away (docs/outages.md#stale-answers). */
  lastAnswers: LastAnswers;
  views: ViewRecorder;
  /** The activation page's pairs loaded together, added up at most once a minute per team. */
  recentPairs: RecentPairs;
  /** The days this instance knows have a telemetry partition: the receiver asks nothing more about them. */
  telemetryPartitions: TelemetryPartitions;
  /** Per API key; null when rate limiting is off. */
  limiter: SharedRateLimit | null;
  /** OAuth client registrations per address, an hour's worth; on whatever SKILLGATE_RATE_LIMIT says. */
  registrations: SharedRateLimit;
  /** Failed sign-ins, per account and per address. */
  signInThrottle: SignInThrottle;
  /** How long dashboard sessions live. */
  sessionPolicy: SessionPolicy;
  /** The judge and generator (docs/evaluation-and-activation.md#the-judge-model); null when SKILLGATE_MODEL is unset. */
  model: ConfiguredModel | null;
  judgeConcurrency: number;
  /** Mails invitations; null when no SMTP server is configured. */
  mailer: Mailer | null;
  /** This instance's id and background timers (leases on runs). */
  work: InstanceWork;
  /** Sends what the webhook outbox holds: to receivers, and mail to leads who asked (docs/learned-skills.md#webhooks-and-mail). */
  webhooks: WebhookSender;
  /** Write buffered views once each response is sent, not only on the interval (serverless). */
  flushViewsAfterResponse: boolean;
  close(): Promise<void>;
}
