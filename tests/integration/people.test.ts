import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { and, eq } from "drizzle-orm";
import { apiKeys } from "@/db/schema";
import { createApiKey, hashApiKey, listApiKeys, readKeyAuth } from "@/lib/auth/api-keys";
import { makeMemberKey, memberKeyOf } from "@/lib/auth/member-keys";
import { ensureUser } from "@/lib/auth/users";
import type { Role } from "@/lib/auth/scopes";
import { listConnections } from "@/lib/oauth/connections";
import { skillInProduction } from "@/lib/pages/production";
import { removeMember } from "@/lib/teams/members";
import { setMembership } from "@/lib/teams/teams";
import { useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { httpBridge } from "../helpers/http-bridge";
import { claudeCodeLogs, type ClaudeCodeSession, type LogSender, type Person } from "../helpers/telemetry";

/**
 * People as people (issue 40): Claude Code signed in with an API key names the person only by
 * `user.id`, a 64-hex hash. A member's own key makes what it sends theirs; hashes nobody can map
 * are "unknown person #n", numbered for good; `OTEL_RESOURCE_ATTRIBUTES=user.email=…` on the
 * resource names the person too. Telemetry goes in through the real OpenTelemetry exporters.
 */

const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY);
const HASH_A = `a1${"0".repeat(62)}`;
const HASH_B = `b2${"0".repeat(62)}`;
const HASH_C = `0c${"0".repeat(62)}`;
const INVALID_KEY = "API key not valid or revoked; ask a lead for a new one";

describe.each(testDbKinds)("people as people (%s)", (kind) => {
  const t = useTestApp(kind);
  let bridge: Awaited<ReturnType<typeof httpBridge>>;
  let senders: LogSender[] = [];
  beforeEach(async () => {
    bridge = await httpBridge();
  });
  afterEach(async () => {
    await Promise.all(senders.map((sender) => sender.close()));
    senders = [];
    await bridge.close();
  });

  const sender = (key: string): LogSender => {
    const logs = claudeCodeLogs({ endpoint: `${bridge.url}/api/otlp`, key });
    senders.push(logs);
    return logs;
  };
  const session = (sessionId: string, person: Person): ClaudeCodeSession => ({ sessionId, person, sequence: 0 });
  const member = async (email: string, role: Role) => {
    const user = await ensureUser(t.app.db, email, "a password of some length");
    await setMembership(t.app.db, t.alpha.team.id, user.id, role);
    return user;
  };
  const teamKey = async () => (await createApiKey(t.app.db, { teamId: t.alpha.team.id, name: "laptops", scopes: ["telemetry"] })).key;
  /** The skill page's "In production" people, as a lead reads them. */
  const people = async (skill: string) =>
    (await skillInProduction(t.app.db, t.alpha.team.id, skill, [{ version: 1, createdAt: null }])).people;
  const usagePeople = async (skill: string) => {
    const usage = await (await t.call("GET", "/api/v1/usage")).json();
    return usage.skills.find((entry: { name: string }) => entry.name === skill)?.people;
  };
  /** An empty export with `key`: 200 while the key works. */
  const exportWith = (key: string) =>
    t.call("POST", "/api/otlp/v1/logs", { key, body: "{}", headers: { "content-type": "application/json" } });

  it("attributes everything a member's own key sends to that member, whoever the records name", async () => {
    const ana = await member("ana@example.com", "viewer");
    const { id, key } = await makeMemberKey(t.app.db, t.alpha.team.id, ana.id);
    const logs = sender(key);
    const apiKeyLogin = session("ana-1", { userId: HASH_A });
    logs.userPrompt(apiKeyLogin, { promptId: "p1", at: daysAgo(1) });
    logs.skillActivated(apiKeyLogin, { skill: "systematic-debugging", trigger: "claude-proactive", promptId: "p1", at: daysAgo(1) });
    // A laptop signed in to claude.ai as someone else still sends as Ana, with Ana's key.
    const other = session("ana-2", { email: "someone@else.example", accountUuid: "u-9" });
    logs.skillActivated(other, { skill: "systematic-debugging", trigger: "user-slash", promptId: "p2" });
    await logs.flush();

    expect(await people("systematic-debugging")).toEqual([{ name: "ana@example.com", unknown: false, days: 2 }]);
    expect(await usagePeople("systematic-debugging")).toBe(1);
    // The key is a key (a lead sees and can revoke it), not an MCP client signed in.
    expect((await listApiKeys(t.app.db, t.alpha.team.id)).map((k) => [k.name, k.scopes])).toEqual([
      ["Claude Code key of ana@example.com", ["telemetry"]],
      ["test", ["read", "write", "admin"]],
    ]);
    expect(await listConnections(t.app.db, t.alpha.team.id, { userId: ana.id, role: "viewer" })).toEqual([]);
    expect((await memberKeyOf(t.app.db, t.alpha.team.id, ana.id))?.id).toBe(id);
    // It sends telemetry and reads nothing.
    expect((await t.call("GET", "/api/v1/listing", { key })).status).toBe(403);
  });

  it("names hashes nobody can map 'unknown person #n', numbered by first day seen then by hash, for good", async () => {
    const logs = sender(await teamKey());
    const b = session("b-1", { userId: HASH_B });
    const a = session("a-1", { userId: HASH_A });
    logs.skillActivated(b, { skill: "writing-plans", trigger: "claude-proactive", promptId: "b1", at: daysAgo(3) });
    logs.skillActivated(a, { skill: "writing-plans", trigger: "claude-proactive", promptId: "a1", at: daysAgo(2) });
    logs.skillActivated(a, { skill: "writing-plans", trigger: "user-slash", promptId: "a2" });
    await logs.flush();
    // B came first (3 days ago), though A's hash sorts first; A used it on more days.
    expect(await people("writing-plans")).toEqual([
      { name: "unknown person #2", unknown: true, days: 2 },
      { name: "unknown person #1", unknown: true, days: 1 },
    ]);

    // A newcomer today, whose hash sorts before both, comes after them; the numbers stay.
    const c = session("c-1", { userId: HASH_C });
    logs.skillActivated(c, { skill: "writing-plans", trigger: "claude-proactive", promptId: "c1" });
    logs.skillActivated(c, { skill: "test-driven-development", trigger: "claude-proactive", promptId: "c1" });
    logs.skillActivated(b, { skill: "writing-plans", trigger: "claude-proactive", promptId: "b2" });
    await logs.flush();
    const shown = await people("writing-plans");
    expect(shown).toEqual([
      { name: "unknown person #2", unknown: true, days: 2 },
      { name: "unknown person #1", unknown: true, days: 2 },
      { name: "unknown person #3", unknown: true, days: 1 },
    ]);
    // The same person is the same number on every skill's page.
    expect(await people("test-driven-development")).toEqual([{ name: "unknown person #3", unknown: true, days: 1 }]);
    // Counted as people, never shown as hex.
    expect(await usagePeople("writing-plans")).toBe(3);
    expect(JSON.stringify(shown)).not.toMatch(/[0-9a-f]{64}/);
  });

  it("names the person by user.email on the resource (OTEL_RESOURCE_ATTRIBUTES) when records carry only user.id", async () => {
    vi.stubEnv("OTEL_RESOURCE_ATTRIBUTES", "user.email=bo@example.com,department=platform");
    let logs: LogSender;
    try {
      logs = sender(await teamKey());
    } finally {
      vi.unstubAllEnvs();
    }
    // A team's key names nobody: the resource's user.email does.
    const bo = session("bo-1", { userId: HASH_B });
    logs.skillActivated(bo, { skill: "deploy-helper", trigger: "claude-proactive", promptId: "q1" });
    await logs.flush();
    expect(await people("deploy-helper")).toEqual([{ name: "bo@example.com", unknown: false, days: 1 }]);
  });

  it("keeps one live key per member: 16 made at once each answer, and exactly the last one made works", async () => {
    const ana = await member("ana@example.com", "editor");
    const lee = await member("lee@example.com", "lead");
    const lees = await makeMemberKey(t.app.db, t.alpha.team.id, lee.id);
    const made = await Promise.all(Array.from({ length: 16 }, () => makeMemberKey(t.app.db, t.alpha.team.id, ana.id)));
    expect(new Set(made.map((m) => m.key)).size).toBe(16);

    const rows = await t.app.db
      .select({ id: apiKeys.id, revokedAt: apiKeys.revokedAt, scopes: apiKeys.scopes })
      .from(apiKeys)
      .where(and(eq(apiKeys.teamId, t.alpha.team.id), eq(apiKeys.userId, ana.id)));
    expect(rows).toHaveLength(16);
    const live = rows.filter((row) => row.revokedAt === null);
    expect(live).toHaveLength(1);
    expect(live[0]!.scopes).toEqual(["telemetry"]);
    // The live one is the last made: every other was revoked by the one after it.
    expect(live[0]!.id).toBe(Math.max(...made.map((m) => m.id)));
    expect((await memberKeyOf(t.app.db, t.alpha.team.id, ana.id))?.id).toBe(live[0]!.id);

    const statuses = await Promise.all(made.map(async (m) => [m.id, (await exportWith(m.key)).status] as const));
    expect(statuses.filter(([, status]) => status === 200).map(([id]) => id)).toEqual([live[0]!.id]);
    expect(statuses.filter(([, status]) => status === 401)).toHaveLength(15);
    // Another member's key is theirs alone.
    expect((await exportWith(lees.key)).status).toBe(200);
  });

  it("stops a member's key when they leave the team, and makes none for someone outside it", async () => {
    const ana = await member("ana@example.com", "viewer");
    await member("lee@example.com", "lead");
    const { id, key } = await makeMemberKey(t.app.db, t.alpha.team.id, ana.id);
    expect((await exportWith(key)).status).toBe(200);

    await removeMember(t.app.db, t.alpha.team.id, "ana@example.com");
    const refused = await exportWith(key);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ code: 16, message: INVALID_KEY });
    const [row] = await t.app.db.select({ revokedAt: apiKeys.revokedAt }).from(apiKeys).where(eq(apiKeys.id, id));
    expect(row!.revokedAt).toBeInstanceOf(Date);
    expect(await memberKeyOf(t.app.db, t.alpha.team.id, ana.id)).toBeNull();

    // Out of the team, Ana cannot make another.
    const outside = await makeMemberKey(t.app.db, t.alpha.team.id, ana.id).catch((error: unknown) => error);
    expect(outside).toMatchObject({ code: "MemberNotFound" });
    // A membership ended by any other path ends the key too, before anything revokes it.
    const bo = await member("bo@example.com", "viewer");
    const bos = await makeMemberKey(t.app.db, t.alpha.team.id, bo.id);
    expect((await readKeyAuth(t.app.database, hashApiKey(bos.key)))?.member).toEqual({ userId: bo.id, email: "bo@example.com" });
    await t.app.database.query("delete from memberships where user_id = $1", [bo.id]);
    expect(await readKeyAuth(t.app.database, hashApiKey(bos.key))).toBeNull();
  });
});
