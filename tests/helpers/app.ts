import path from "node:path";
import { createApiKey } from "@/lib/auth/api-keys";
import { createApp, type App } from "@/lib/app/app";
import type { ConfiguredModel } from "@/lib/evolution/model";
import { installApp } from "@/lib/app/boot";
import { ensureTeam, type Team } from "@/lib/teams/teams";
import { openTestDatabase, type TestDbKind } from "./db";
import { checkResponse } from "./contract-check";
import { dispatch } from "./router";

export interface TestTeam {
  team: Team;
  /** An admin key: read, write and admin. */
  key: string;
}

export interface TestApp {
  app: App;
  alpha: TestTeam;
  beta: TestTeam;
  call(method: string, url: string, options?: CallOptions): Promise<Response>;
  close(): Promise<void>;
}

export interface CallOptions {
  key?: string | null;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
}

export const FIXTURES = path.resolve("tests/fixtures");

/** A real app on a fresh database with two teams, installed as the process's app. */
export async function startTestApp(
  kind: TestDbKind,
  options: {
    globalSkillsDir?: string;
    rateLimitPerMinute?: number;
    model?: ConfiguredModel;
    judgeConcurrency?: number;
    databaseVia?: (url: string) => Promise<string>;
  } = {},
): Promise<TestApp> {
  const database = await openTestDatabase(kind, { via: options.databaseVia });
  const app = createApp({
    database,
    builtinSkillsDir: path.resolve("skills"),
    globalSkillsDir: options.globalSkillsDir,
    rateLimitPerMinute: options.rateLimitPerMinute ?? 0,
    viewBatch: { batchSize: 1000, intervalMs: 60_000 },
    model: options.model ?? null,
    judgeConcurrency: options.judgeConcurrency ?? 4,
  });
  const uninstall = installApp(app);
  const makeTeam = async (slug: string): Promise<TestTeam> => {
    const team = await ensureTeam(app.db, slug);
    const { key } = await createApiKey(app.db, { teamId: team.id, name: "test", scopes: ["read", "write", "admin"] });
    return { team, key };
  };
  const alpha = await makeTeam("alpha");
  const beta = await makeTeam("beta");
  return {
    app,
    alpha,
    beta,
    call: (method, url, { key = alpha.key, json, body, headers = {} } = {}) => {
      const init: RequestInit = { method, headers: { ...headers } };
      if (key) (init.headers as Record<string, string>).authorization = `Bearer ${key}`;
      if (json !== undefined) {
        init.body = JSON.stringify(json);
        (init.headers as Record<string, string>)["content-type"] ??= "application/json";
      } else if (body !== undefined) init.body = body;
      const req = new Request(`http://skillgate.test${url}`, init);
      return dispatch(req).then((res) => checkResponse(req, res));
    },
    close: async () => {
      uninstall();
      await app.close();
    },
  };
}

/** The `error` of an error envelope. */
export async function errorOf(res: Response): Promise<{ code: string; message: string }> {
  return ((await res.json()) as { error: { code: string; message: string } }).error;
}
