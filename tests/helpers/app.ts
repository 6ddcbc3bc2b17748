import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import type { Database, Db } from "@/db/client";
import { TEAM_CHANGES_CHANNEL } from "@/db/team-changes";
import { ensureApiKey, generateApiKey } from "@/lib/auth/api-keys";
import type { App } from "@/lib/contracts/app";
import { createApp } from "@/lib/root/app";
import type { ConfiguredModel } from "@/lib/evolution/model";
import { installApp } from "@/lib/current-app";
import { ensureTeam, type Team } from "@/lib/teams/teams";
import { openTestDatabase, resetDatabase, type TestDbKind } from "./db";
import { checkResponse } from "./contract-check";
import type { Mailer } from "@/lib/mail/mailer";
import { dispatch } from "./router";
import { waitFor } from "./wait";
import type { WebhookOptions } from "@/lib/webhooks/sender";

export interface TestTeam {
  team: Team;
  /** An admin key: read, write and admin. */
  key: string;
}

/** A real app with two teams, installed as the process's app, and a client for its routes. */
export interface TestApp {
  readonly app: App;
  readonly alpha: TestTeam;
  readonly beta: TestTeam;
  call(method: string, url: string, options?: CallOptions): Promise<Response>;
}

export interface CallOptions {
  key?: string | null;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
}

export interface TestAppOptions {
  globalSkillsDir?: string;
  rateLimitPerMinute?: number;
  model?: ConfiguredModel;
  judgeConcurrency?: number;
  claimsPerTick?: number;
  databaseVia?: (url: string) => Promise<string>;
  /** A pooler in front of the database (tests/helpers/pgbouncer.ts): its URL, from the server's. */
  databasePooler?: (url: string) => Promise<string>;
  /** A PostgreSQL server other than TEST_DATABASE_URL's (tests/helpers/owned-cluster.ts). */
  databaseServer?: string;
  /** The pool's size and a request's longest wait for a connection, on a server (defaults: the app's). */
  databasePool?: { poolSize: number; queueMs: number };
  mailer?: Mailer;
  /**
   * Webhook timings. By default the sender wakes only on the outbox's notices, never on a tick: a
   * test that counts statements sees none it did not cause.
   */
  webhooks?: Partial<WebhookOptions>;
}

export const FIXTURES = path.resolve("tests/fixtures");

/**
 * The app of a describe block. The block gets one database; before every test it is emptied and
 * given the two teams alpha and beta with the same admin keys as before, and a new App is built on
 * it, so no cache, rate-limit counter or buffered view outlives a test. Every test therefore
 * starts from the same state and can run alone. Read `t.app`, `t.alpha` and `t.beta` inside tests
 * (or in beforeEach hooks registered after this call): they are the current test's.
 */
export function useTestApp(kind: TestDbKind, options: TestAppOptions = {}): TestApp {
  let database: Database;
  let keys: TeamKeys;
  let current: { app: App; alpha: TestTeam; beta: TestTeam; uninstall: () => void } | undefined;
  const now = () => {
    if (!current) throw new Error("the test app exists only while a test runs: use it inside it() or beforeEach()");
    return current;
  };

  beforeAll(async () => {
    database = await openTestDatabase(kind, {
      via: options.databaseVia,
      pooler: options.databasePooler,
      ...options.databasePool,
      handedOn: true,
    });
    keys = newTeamKeys();
  });
  beforeEach(async () => {
    await resetDatabase(database);
    // The per-test app shares the block's database, so closing it must leave the database open.
    const app = buildApp({ ...database, close: async () => {} }, options);
    const uninstall = installApp(app);
    current = { app, uninstall, ...(await seedTeams(app.db, keys)) };
  });
  afterEach(async () => {
    if (!current) return;
    const { app, uninstall } = current;
    current = undefined;
    uninstall();
    // Stops its flush timer, which would otherwise write this test's views into a later test.
    await app.close();
  });
  afterAll(async () => database?.close());

  return {
    get app() {
      return now().app;
    },
    get alpha() {
      return now().alpha;
    },
    get beta() {
      return now().beta;
    },
    call: (method, url, callOptions) => call(now().alpha.key, method, url, callOptions),
  };
}

/** A real app on a fresh database of its own with two teams, installed as the process's app until closed. */
export async function startTestApp(kind: TestDbKind, options: TestAppOptions = {}): Promise<TestApp & { close(): Promise<void> }> {
  const database = await openTestDatabase(kind, {
    via: options.databaseVia,
    pooler: options.databasePooler,
    serverUrl: options.databaseServer,
    ...options.databasePool,
  });
  const app = buildApp(database, options);
  const uninstall = installApp(app);
  const { alpha, beta } = await seedTeams(app.db, newTeamKeys());
  return {
    app,
    alpha,
    beta,
    call: (method, url, callOptions) => call(alpha.key, method, url, callOptions),
    close: async () => {
      uninstall();
      await app.close();
    },
  };
}

/**
 * Waits until the app's feed listens and has heard every team change committed so far. On a busy
 * machine a change's notice can come late, after a test has filled a cache that the notice then
 * empties: seen in CI as a warm burst that read its install link again, and a known listing that
 * needed the database.
 */
export async function changesHeard(app: App): Promise<void> {
  const feed = app.database.teamChanges;
  if (!feed) return;
  await waitFor(() => feed.live, { what: "the team-changes feed to listen" });
  const heard = await feed.caughtUp((token) => app.db.execute(sql`select pg_notify(${TEAM_CHANGES_CHANNEL}, ${token})`), 20_000);
  if (!heard) throw new Error("the team-changes feed did not hear its own notice in 20 s");
}

/**
 * A second instance of the app on the same database, as another process behind a load balancer
 * would be: its own caches, buffers and limits, the same rows. Install it to send requests to it.
 */
export function anotherInstance(app: App, options: TestAppOptions = {}): App {
  return buildApp({ ...app.database, close: async () => {} }, options);
}

function buildApp(database: Database, options: TestAppOptions): App {
  return createApp({
    database,
    builtinSkillsDir: path.resolve("skills"),
    globalSkillsDir: options.globalSkillsDir,
    rateLimitPerMinute: options.rateLimitPerMinute ?? 0,
    viewBatch: { batchSize: 1000, intervalMs: 60_000 },
    model: options.model ?? null,
    judgeConcurrency: options.judgeConcurrency ?? 4,
    mailer: options.mailer ?? null,
    claimsPerTick: options.claimsPerTick,
    webhooks: { tickMs: 0, ...options.webhooks },
  });
}

interface TeamKeys {
  alpha: string;
  beta: string;
}

function newTeamKeys(): TeamKeys {
  return { alpha: generateApiKey(), beta: generateApiKey() };
}

/** Teams alpha and beta, each with an admin key; on an emptied database they get ids 1 and 2 again. */
async function seedTeams(db: Db, keys: TeamKeys): Promise<{ alpha: TestTeam; beta: TestTeam }> {
  const seed = async (slug: string, key: string): Promise<TestTeam> => {
    const team = await ensureTeam(db, slug);
    await ensureApiKey(db, { teamId: team.id, name: "test", scopes: ["read", "write", "admin"] }, key);
    return { team, key };
  };
  return { alpha: await seed("alpha", keys.alpha), beta: await seed("beta", keys.beta) };
}

/** A request to the app's route handlers, as alpha's admin key unless another key (or null) is given. */
function call(
  defaultKey: string,
  method: string,
  url: string,
  { key = defaultKey, json, body, headers = {} }: CallOptions = {},
): Promise<Response> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (key) (init.headers as Record<string, string>).authorization = `Bearer ${key}`;
  if (json !== undefined) {
    init.body = JSON.stringify(json);
    (init.headers as Record<string, string>)["content-type"] ??= "application/json";
  } else if (body !== undefined) init.body = body;
  const req = new Request(`http://skillgate.test${url}`, init);
  return fetchApp(req);
}

/** A request to the app's route handlers, its response checked against the operation's contract. */
export async function fetchApp(req: Request): Promise<Response> {
  return checkResponse(req, await dispatch(req));
}

/** The `error` of an error envelope. */
export async function errorOf(res: Response): Promise<{ code: string; message: string }> {
  return ((await res.json()) as { error: { code: string; message: string } }).error;
}
