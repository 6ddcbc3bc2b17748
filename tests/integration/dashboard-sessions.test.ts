import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "@/db/client";
import { dashboardSessions } from "@/db/schema";
import {
  checkDashboardSession,
  endDashboardSession,
  endSessionsOf,
  sessionsOf,
  startDashboardSession,
  type SessionPolicy,
} from "@/lib/auth/dashboard-sessions";
import { ensureUser } from "@/lib/auth/users";
import { endMemberSessions } from "@/lib/teams/members";
import { ensureTeam, setMembership } from "@/lib/teams/teams";
import { openTestDatabase, resetDatabase, testDbKinds } from "../helpers/db";

const policy: SessionPolicy = { idleMs: 30 * 60_000, maxMs: 12 * 3_600_000 };
const at = (minutes: number) => new Date(Date.UTC(2026, 11, 1, 8, 0) + minutes * 60_000);

describe.each(testDbKinds)("dashboard sessions on %s", (kind) => {
  let database: Database;
  let ada: number;
  let bob: number;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  // Every test starts with two people and no sessions.
  beforeEach(async () => {
    await resetDatabase(database);
    ada = (await ensureUser(database.db, "ada@example.test", "pw-ada-0001")).id;
    bob = (await ensureUser(database.db, "bob@example.test", "pw-bob-0001")).id;
  });
  afterAll(async () => database?.close());

  it("keeps only a hash of the session id, and finds the person by the id", async () => {
    const id = await startDashboardSession(database.db, ada, policy, at(0));
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await database.db.select().from(dashboardSessions).where(eq(dashboardSessions.userId, ada));
    expect(rows.map((row) => row.idHash)).not.toContain(id);
    expect(await checkDashboardSession(database, id, policy, at(1))).toEqual({ userId: ada });
    expect(await checkDashboardSession(database, "not-a-session", policy, at(1))).toBeNull();
  });

  it("ends after 30 idle minutes, and each request pushes that back", async () => {
    const id = await startDashboardSession(database.db, ada, policy, at(0));
    expect(await checkDashboardSession(database, id, policy, at(25))).toEqual({ userId: ada });
    expect(await checkDashboardSession(database, id, policy, at(50))).toEqual({ userId: ada });
    expect(await checkDashboardSession(database, id, policy, at(81))).toBeNull();
    // Once ended it stays ended, even for a clock that goes back.
    expect(await checkDashboardSession(database, id, policy, at(51))).toBeNull();
  });

  it("ends 12 hours after sign-in however busy it is", async () => {
    const id = await startDashboardSession(database.db, ada, policy, at(0));
    for (let minute = 20; minute < 12 * 60; minute += 20)
      expect(await checkDashboardSession(database, id, policy, at(minute))).not.toBeNull();
    expect(await checkDashboardSession(database, id, policy, at(12 * 60 + 1))).toBeNull();
  });

  it("ends at sign-out, and a lead ends every session of a member of their team only", async () => {
    const one = await startDashboardSession(database.db, bob, policy);
    const two = await startDashboardSession(database.db, bob, policy);
    await endDashboardSession(database.db, one);
    expect(await checkDashboardSession(database, one, policy)).toBeNull();
    expect(await checkDashboardSession(database, two, policy)).toEqual({ userId: bob });
    const team = await ensureTeam(database.db, "sessions-team");
    const other = await ensureTeam(database.db, "other-team");
    await setMembership(database.db, team.id, bob, "viewer");
    await expect(endMemberSessions(database.db, other.id, bob)).rejects.toThrow(`no member ${bob} in this team`);
    expect(await checkDashboardSession(database, two, policy)).toEqual({ userId: bob });
    expect((await sessionsOf(database.db, [bob], policy)).get(bob)?.active).toBe(1);
    expect(await endMemberSessions(database.db, team.id, bob)).toEqual({ email: "bob@example.test", ended: 1 });
    expect(await checkDashboardSession(database, two, policy)).toBeNull();
    expect((await sessionsOf(database.db, [bob], policy)).get(bob)).toBeUndefined();
    expect(await endSessionsOf(database.db, bob)).toBe(0);
  });
});
