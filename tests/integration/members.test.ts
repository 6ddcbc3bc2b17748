import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { dashboardSessions, memberships } from "@/db/schema";
import { createApiKey } from "@/lib/auth/api-keys";
import { startDashboardSession } from "@/lib/auth/dashboard-sessions";
import { ensureGithubUser, ensureUser } from "@/lib/auth/users";
import { acceptInvitation, openInvitation } from "@/lib/teams/invitations";
import { setMembership } from "@/lib/teams/teams";
import type { Role } from "@/lib/auth/scopes";
import { errorOf, useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";

/** Members and invitations (docs/teams-and-keys.md#members-and-invitations) through the API an admin key uses; the settings page calls the same functions. */
describe.each(testDbKinds)("members and invitations on %s", (kind) => {
  const t = useTestApp(kind);

  const member = async (email: string, role: Role, team = t.alpha.team) => {
    const user = await ensureUser(t.app.db, email, "a password of some length");
    await setMembership(t.app.db, team.id, user.id, role);
    return user;
  };
  const tokenOf = (url: string) => url.slice(url.lastIndexOf("/") + 1);

  it("invites by email with a role: a one-time link for 7 days that makes the invited person a member", async () => {
    await member("lead@example.com", "lead");
    const before = Date.now();
    const res = await t.call("POST", "/api/v1/invitations", { json: { email: "New.Person@Example.com", role: "editor" } });
    expect(res.status).toBe(201);
    const invitation = await res.json();
    expect(invitation.url).toMatch(/^http:\/\/skillgate\.test\/invite\/sgv_[A-Za-z0-9_-]{32}$/);
    // No mail server is configured here: the admin passes the link on.
    expect(invitation.mailed).toBe(false);
    const expires = Date.parse(invitation.expiresAt) - before;
    expect(expires).toBeGreaterThanOrEqual(7 * 24 * 3600 * 1000 - 1000);
    expect(expires).toBeLessThan(7 * 24 * 3600 * 1000 + 60_000);
    const pending = await (await t.call("GET", "/api/v1/invitations")).json();
    expect(pending.invitations).toEqual([
      {
        id: invitation.id,
        email: "new.person@example.com",
        role: "editor",
        createdAt: expect.any(String),
        expiresAt: invitation.expiresAt,
      },
    ]);

    const person = await ensureUser(t.app.db, "new.person@example.com", "their own password");
    const accepted = await acceptInvitation(t.app.db, tokenOf(invitation.url), person.id);
    expect([accepted.team.slug, accepted.role]).toEqual(["alpha", "editor"]);
    const members = await (await t.call("GET", "/api/v1/members")).json();
    expect(members.members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      ["lead@example.com", "lead"],
      ["new.person@example.com", "editor"],
    ]);
    await expect(acceptInvitation(t.app.db, tokenOf(invitation.url), person.id)).rejects.toThrow(
      "this invitation has expired, was used or was withdrawn; ask a lead of the team for a new one",
    );
    expect((await (await t.call("GET", "/api/v1/invitations")).json()).invitations).toEqual([]);
  });

  it("lets only the invited address accept: anyone else is told whose it is and the link stays unused; 16 racing accepts make one member", async () => {
    const editor = await member("editor@example.com", "editor");
    const betaLead = await member("beta-lead@example.com", "lead", t.beta.team);
    const invitation = await (await t.call("POST", "/api/v1/invitations", { json: { email: "Victim@Example.com", role: "lead" } })).json();
    const token = tokenOf(invitation.url);
    for (const [intruder, email] of [
      [editor, "editor@example.com"],
      [betaLead, "beta-lead@example.com"],
    ] as const) {
      await expect(acceptInvitation(t.app.db, token, intruder.id)).rejects.toThrow(
        `this invitation is for victim@example.com, and you are signed in as ${email}; sign out and open the link again as victim@example.com`,
      );
    }
    expect((await openInvitation(t.app.db, token))?.email).toBe("victim@example.com");
    const roles = async () =>
      (
        await t.app.db
          .select({ userId: memberships.userId, role: memberships.role })
          .from(memberships)
          .where(eq(memberships.teamId, t.alpha.team.id))
      )
        .map((row) => `${row.userId}:${row.role}`)
        .sort();
    expect(await roles()).toEqual([`${editor.id}:editor`]);

    // A GitHub account proves the addresses GitHub verified; any other is someone else's — its profile address too.
    const github = await ensureGithubUser(t.app.db, "4242", "octo@users.noreply.github.com", "Octo", ["octo@example.com"]);
    await expect(acceptInvitation(t.app.db, token, github.id)).rejects.toThrow("this invitation is for victim@example.com");
    const squatter = await ensureGithubUser(t.app.db, "31337", "squatter@example.org", "Squatter", []);
    const toSquatted = await (
      await t.call("POST", "/api/v1/invitations", { json: { email: "squatter@example.org", role: "lead" } })
    ).json();
    await expect(acceptInvitation(t.app.db, tokenOf(toSquatted.url), squatter.id)).rejects.toThrow(
      "this invitation is for squatter@example.org, and you are signed in as squatter@example.org",
    );
    const victim = await ensureGithubUser(t.app.db, "777", "victim-public@example.org", "Victim", ["victim@example.com"]);
    const racers = Array.from({ length: 16 }, (_, i) => [victim, editor, github, betaLead][i % 4]!);
    const results = await Promise.allSettled(racers.map((racer) => acceptInvitation(t.app.db, token, racer.id)));
    const outcomes = results.map((result, i) => {
      const who = racers[i]!.id === victim.id ? "victim" : "intruder";
      return `${who}:${result.status === "fulfilled" ? "accepted" : (result.reason as { code: string }).code}`;
    });
    // The link is the invitee's once: one acceptance; their other tabs find it used; nobody else gets in, before or after.
    expect(outcomes.filter((outcome) => outcome === "victim:accepted")).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === "victim:InvitationNotFound")).toHaveLength(3);
    expect(outcomes.filter((outcome) => /^intruder:(InvitationNotYours|InvitationNotFound)$/.test(outcome))).toHaveLength(12);
    expect(await roles()).toEqual([`${editor.id}:editor`, `${victim.id}:lead`].sort());
  });

  it("refuses to invite a member, withdraws an earlier link for the same email, and lets links expire", async () => {
    await member("lead@example.com", "lead");
    const already = await t.call("POST", "/api/v1/invitations", { json: { email: "lead@example.com", role: "viewer" } });
    expect([already.status, await errorOf(already)]).toEqual([
      409,
      { code: "AlreadyMember", message: "lead@example.com is already a member of this team (lead); change their role instead" },
    ]);
    const first = await (await t.call("POST", "/api/v1/invitations", { json: { email: "x@example.com", role: "viewer" } })).json();
    const second = await (await t.call("POST", "/api/v1/invitations", { json: { email: "x@example.com", role: "editor" } })).json();
    expect(await openInvitation(t.app.db, tokenOf(first.url))).toBeNull();
    expect((await openInvitation(t.app.db, tokenOf(second.url)))?.role).toBe("editor");
    const eightDaysOn = new Date(Date.now() + 8 * 24 * 3600 * 1000);
    expect(await openInvitation(t.app.db, tokenOf(second.url), eightDaysOn)).toBeNull();
    const withdrawn = await t.call("DELETE", `/api/v1/invitations/${second.id}`);
    expect(withdrawn.status).toBe(200);
    expect(await openInvitation(t.app.db, tokenOf(second.url))).toBeNull();
    const again = await t.call("DELETE", `/api/v1/invitations/${second.id}`);
    expect([again.status, (await errorOf(again)).code]).toEqual([404, "InvitationNotFound"]);
    const bad = await t.call("POST", "/api/v1/invitations", { json: { email: "not an email", role: "owner" } });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toMatch(/^field "email": must be an email address/);
  });

  it("changes roles and removes members, ending their sessions; another team's member is not found", async () => {
    await member("lead@example.com", "lead");
    const viewer = await member("viewer@example.com", "viewer");
    await member("beta-only@example.com", "editor", t.beta.team);
    await startDashboardSession(t.app.db, viewer.id, t.app.sessionPolicy);
    const promoted = await t.call("PATCH", "/api/v1/members/viewer%40example.com", { json: { role: "editor" } });
    expect(promoted.status).toBe(200);
    expect(await promoted.json()).toEqual({ email: "viewer@example.com", role: "editor", joinedAt: expect.any(String) });
    const removed = await t.call("DELETE", "/api/v1/members/viewer@example.com");
    expect(await removed.json()).toEqual({ email: "viewer@example.com", removed: true, sessionsEnded: 1 });
    expect(await t.app.db.$count(dashboardSessions, eq(dashboardSessions.userId, viewer.id))).toBe(0);
    expect(await t.app.db.$count(memberships, eq(memberships.userId, viewer.id))).toBe(0);
    const other = await t.call("DELETE", "/api/v1/members/beta-only@example.com");
    expect([other.status, await errorOf(other)]).toEqual([
      404,
      { code: "MemberNotFound", message: "no member beta-only@example.com in this team" },
    ]);
    const { key: writeKey } = await createApiKey(t.app.db, { teamId: t.alpha.team.id, name: "writer", scopes: ["write"] });
    expect((await t.call("GET", "/api/v1/members", { key: writeKey })).status).toBe(403);
    expect((await t.call("POST", "/api/v1/invitations", { key: writeKey, json: { email: "y@example.com", role: "lead" } })).status).toBe(
      403,
    );
  });

  it("always keeps a lead: the last one can be neither demoted nor removed, and two leads demoting each other at once leave one", async () => {
    await member("only@example.com", "lead");
    const message = "only@example.com is the team's last lead: make another member lead first, so the team keeps one";
    const demote = await t.call("PATCH", "/api/v1/members/only@example.com", { json: { role: "editor" } });
    expect([demote.status, await errorOf(demote)]).toEqual([409, { code: "LastLead", message }]);
    const remove = await t.call("DELETE", "/api/v1/members/only@example.com");
    expect([remove.status, await errorOf(remove)]).toEqual([409, { code: "LastLead", message }]);

    await member("second@example.com", "lead");
    const results = await Promise.all(
      ["only@example.com", "second@example.com"].map((email) => t.call("PATCH", `/api/v1/members/${email}`, { json: { role: "viewer" } })),
    );
    expect(results.map((res) => res.status).sort()).toEqual([200, 409]);
    const roles = (await (await t.call("GET", "/api/v1/members")).json()).members.map((m: { role: string }) => m.role);
    expect(roles.sort()).toEqual(["lead", "viewer"]);
  });
});
