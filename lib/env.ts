import { z } from "zod";
import { initWithoutTeam } from "./init-config.mjs";

/** Configuration, validated once. Nothing else reads `process.env`. */

const list = (value: string | undefined) => (value === undefined || value.trim() === "" ? [] : value.split(",").map((item) => item.trim()));

const schema = z.object({
  DATABASE_URL: z.string().optional(),
  DATABASE_URL_UNPOOLED: z.string().optional(),
  SKILLGATE_DB_POOL_SIZE: z.coerce.number().int().min(1).max(1_000).default(10),
  SKILLGATE_DB_QUEUE_MS: z.coerce.number().int().min(0).max(60_000).default(3_000),
  SKILLGATE_DB_DRIVER: z.enum(["auto", "neon"]).default("auto"),
  SKILLGATE_DATA_DIR: z.string().default("./.data"),
  SKILLGATE_DEMO: z.enum(["0", "1"]).default("1"),
  SKILLGATE_DEMO_API_KEY: z.string().optional(),
  SKILLGATE_DEMO_PASSWORD: z.string().optional(),
  SKILLS_GLOBAL_DIR: z.string().optional(),
  SKILLGATE_BUILTIN_DIR: z.string().default("./skills"),
  SKILLGATE_INIT_TEAM: z.string().optional(),
  SKILLGATE_INIT_API_KEY: z.string().optional(),
  SKILLGATE_INIT_USER_EMAIL: z.string().optional(),
  SKILLGATE_INIT_USER_PASSWORD: z.string().optional(),
  SKILLGATE_RATE_LIMIT: z.coerce.number().int().min(0).default(6000),
  SKILLGATE_VIEW_FLUSH_MS: z.coerce.number().int().min(10).max(3_600_000).default(1000),
  SKILLGATE_FLUSH_VIEWS_AFTER_RESPONSE: z.enum(["0", "1"]).optional(),
  VERCEL: z.string().optional(),
  SKILLGATE_MODEL: z.string().optional(),
  SKILLGATE_OPENAI_BASE_URL: z.url().optional(),
  SKILLGATE_OPENAI_API_KEY: z.string().optional(),
  OPENAI_API_KEY: z.string().optional(),
  ANTHROPIC_API_KEY: z.string().optional(),
  SKILLGATE_JUDGE_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(4),
  SKILLGATE_MODEL_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  SKILLGATE_DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(15_000),
  SKILLGATE_SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(10_080).default(30),
  SKILLGATE_SESSION_MAX_HOURS: z.coerce.number().int().min(1).max(720).default(12),
  SKILLGATE_LEASE_SECONDS: z.coerce.number().int().min(2).max(600).default(30),
  SKILLGATE_SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "give an smtp:// or smtps:// URL, e.g. smtp://user:password@mail.example.com:587")
    .optional(),
  SKILLGATE_MAIL_FROM: z.string().default("Skillgate <skillgate@localhost>"),
  AUTH_SECRET: z.string().optional(),
  AUTH_URL: z.url().optional(),
  SKILLGATE_TRUST_PROXY: z.enum(["0", "1"]).optional(),
  PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
  AUTH_GITHUB_ID: z.string().optional(),
  AUTH_GITHUB_SECRET: z.string().optional(),
});

export interface InitConfig {
  teams: string[];
  apiKeys: string[];
  userEmails: string[];
  userPasswords: string[];
}

export interface Env {
  databaseUrl: string | undefined;
  /** A direct URL to the database when DATABASE_URL goes through a pooler in transaction mode. */
  databaseUrlUnpooled: string | undefined;
  poolSize: number;
  /** How long a request waits for a free pooled connection, within its deadline. */
  queueMs: number;
  neonDriver: boolean;
  dataDir: string;
  demo: boolean;
  /** The demo's login `npm start` keeps in the data folder: made only when the demo goes in (lib/demo/plan.ts). */
  demoLogin: { apiKey: string; password: string } | null;
  globalSkillsDir: string | undefined;
  builtinSkillsDir: string;
  init: InitConfig;
  /** Requests per minute per API key; 0 turns the limit off. */
  rateLimitPerMinute: number;
  /** How long views wait in memory before they are written (they are also written at 500, and on shutdown). */
  viewFlushMs: number;
  /** Write buffered views once each response is sent (Next's after()): on a serverless platform, before the function is frozen. */
  flushViewsAfterResponse: boolean;
  github: { id: string; secret: string } | null;
  model: ModelConfig;
  /** Judge calls of one evaluation in flight at once. */
  judgeConcurrency: number;
  /** On a PostgreSQL server, how long one statement may run. */
  statementTimeoutMs: number;
  /** Dashboard sessions end after this long without a request, and this long after sign-in whatever happens. */
  sessions: { idleMs: number; maxMs: number };
  /** How long an instance's lease on a run or evaluation lasts without renewal: how soon another takes over a dead one's work. */
  leaseSeconds: number;
  /** Where invitations are mailed from; null sends none (the lead passes the link on). */
  mail: { smtpUrl: string; from: string } | null;
  /** Signs and encrypts session cookies (Auth.js). */
  authSecret: string | undefined;
  /**
   * The public URL (`AUTH_URL`), when set: every link handed to a person starts with it, only then
   * are invitations mailed, and an https one means cookies are Secure and HSTS is sent.
   */
  publicUrl: URL | undefined;
  /** The operator says a proxy in front sets `X-Forwarded-Host`/`-Proto`: links may take their address from them when there is no public URL. */
  trustProxy: boolean;
  /** The port this server serves on (`PORT`, as `npm start` passes it to Next). */
  port: number;
}

export interface ModelConfig {
  /** `openai:<model>`, `anthropic:<model>` or `openai-compatible:<model>`; unset means no model. */
  spec: string | undefined;
  openaiBaseUrl: string | undefined;
  openaiApiKey: string | undefined;
  anthropicApiKey: string | undefined;
  compatibleApiKey: string | undefined;
  /** How long generating an amendment waits for the model, retries included. */
  timeoutSeconds: number;
}

export function readEnv(source: Record<string, string | undefined> = process.env): Env {
  const blankToUndefined = Object.fromEntries(Object.entries(source).map(([key, value]) => [key, value === "" ? undefined : value]));
  const parsed = schema.safeParse(blankToUndefined);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    throw new Error(issue ? `configuration: ${issue.path.join(".")}: ${issue.message}` : "configuration: invalid");
  }
  const e = parsed.data;
  const withoutTeam = initWithoutTeam(blankToUndefined);
  if (withoutTeam) throw new Error(`configuration: ${withoutTeam}`);
  const init: InitConfig = {
    teams: list(e.SKILLGATE_INIT_TEAM),
    apiKeys: list(e.SKILLGATE_INIT_API_KEY),
    userEmails: list(e.SKILLGATE_INIT_USER_EMAIL),
    userPasswords: list(e.SKILLGATE_INIT_USER_PASSWORD),
  };
  if (init.apiKeys.length > 0 && init.apiKeys.length !== init.teams.length) {
    throw new Error(
      `configuration: SKILLGATE_INIT_API_KEY lists ${init.apiKeys.length} keys for ${init.teams.length} teams in SKILLGATE_INIT_TEAM; give one key per team`,
    );
  }
  if (init.userEmails.length !== init.userPasswords.length) {
    throw new Error("configuration: SKILLGATE_INIT_USER_EMAIL and SKILLGATE_INIT_USER_PASSWORD must list as many entries");
  }
  return {
    databaseUrl: e.DATABASE_URL,
    databaseUrlUnpooled: e.DATABASE_URL_UNPOOLED,
    poolSize: e.SKILLGATE_DB_POOL_SIZE,
    queueMs: e.SKILLGATE_DB_QUEUE_MS,
    neonDriver: e.SKILLGATE_DB_DRIVER === "neon",
    dataDir: e.SKILLGATE_DATA_DIR,
    demo: e.SKILLGATE_DEMO === "1",
    demoLogin:
      e.SKILLGATE_DEMO_API_KEY && e.SKILLGATE_DEMO_PASSWORD
        ? { apiKey: e.SKILLGATE_DEMO_API_KEY, password: e.SKILLGATE_DEMO_PASSWORD }
        : null,
    globalSkillsDir: e.SKILLS_GLOBAL_DIR,
    builtinSkillsDir: e.SKILLGATE_BUILTIN_DIR,
    init,
    rateLimitPerMinute: e.SKILLGATE_RATE_LIMIT,
    viewFlushMs: e.SKILLGATE_VIEW_FLUSH_MS,
    // On Vercel a function may be frozen as soon as it has answered: write the views before that.
    flushViewsAfterResponse: e.SKILLGATE_FLUSH_VIEWS_AFTER_RESPONSE
      ? e.SKILLGATE_FLUSH_VIEWS_AFTER_RESPONSE === "1"
      : e.VERCEL !== undefined,
    github: e.AUTH_GITHUB_ID && e.AUTH_GITHUB_SECRET ? { id: e.AUTH_GITHUB_ID, secret: e.AUTH_GITHUB_SECRET } : null,
    model: {
      spec: e.SKILLGATE_MODEL,
      openaiBaseUrl: e.SKILLGATE_OPENAI_BASE_URL,
      openaiApiKey: e.OPENAI_API_KEY,
      anthropicApiKey: e.ANTHROPIC_API_KEY,
      compatibleApiKey: e.SKILLGATE_OPENAI_API_KEY,
      timeoutSeconds: e.SKILLGATE_MODEL_TIMEOUT_SECONDS,
    },
    judgeConcurrency: e.SKILLGATE_JUDGE_CONCURRENCY,
    statementTimeoutMs: e.SKILLGATE_DB_STATEMENT_TIMEOUT_MS,
    sessions: { idleMs: e.SKILLGATE_SESSION_IDLE_MINUTES * 60_000, maxMs: e.SKILLGATE_SESSION_MAX_HOURS * 3_600_000 },
    leaseSeconds: e.SKILLGATE_LEASE_SECONDS,
    mail: e.SKILLGATE_SMTP_URL ? { smtpUrl: e.SKILLGATE_SMTP_URL, from: e.SKILLGATE_MAIL_FROM } : null,
    authSecret: e.AUTH_SECRET,
    publicUrl: e.AUTH_URL ? new URL(e.AUTH_URL) : undefined,
    // Vercel's edge sets X-Forwarded-For and X-Forwarded-Host itself; behind it the socket is Vercel's.
    trustProxy: e.SKILLGATE_TRUST_PROXY ? e.SKILLGATE_TRUST_PROXY === "1" : e.VERCEL !== undefined,
    port: e.PORT,
  };
}

let cached: Env | null = null;
export function env(): Env {
  cached ??= readEnv();
  return cached;
}

/** Forgets the configuration read, so the next `env()` reads `process.env` again: for tests that change it. */
export function rereadEnv(): void {
  cached = null;
}
