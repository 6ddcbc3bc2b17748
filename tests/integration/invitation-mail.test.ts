import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { rereadEnv } from "@/lib/env";
import { smtpMailer, type Mailer } from "@/lib/mail/mailer";
import { useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { startSmtp } from "../helpers/smtp-server";

/**
 * docs/teams-and-keys.md#members-and-invitations: where mail is configured, the invitation's link is sent to the person; the invitation stands
 * if the send fails. Links are mailed only on the public URL (AUTH_URL, issue 25).
 */
describe.each(testDbKinds)("invitations mailed through SMTP on %s", (kind) => {
  const smtp = startSmtp((recipient) => recipient.endsWith("@bounces.example"));
  let port = 0;
  // The app is built before the server has a port: the mailer looks it up when it sends.
  const mailer: Mailer = { send: (mail) => smtpMailer(`smtp://127.0.0.1:${port}`, "Skillgate <skillgate@example.com>").send(mail) };
  const t = useTestApp(kind, { mailer });
  beforeAll(async () => {
    port = await smtp.listen();
  });
  afterAll(() => smtp.close());
  beforeEach(() => {
    smtp.received.length = 0;
    vi.stubEnv("AUTH_URL", "https://skills.example.com");
    rereadEnv();
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    rereadEnv();
  });

  it("mails the one-time link, on the public URL whatever the request's headers say, to the person invited, and says it did", async () => {
    const res = await t.call("POST", "/api/v1/invitations", {
      json: { email: "New.Person@Example.com", role: "editor" },
      headers: { host: "evil.test", "x-forwarded-host": "evil.test" },
    });
    expect(res.status).toBe(201);
    const invitation = await res.json();
    expect(invitation.url).toMatch(/^https:\/\/skills\.example\.com\/invite\/sgv_[A-Za-z0-9_-]{32}$/);
    expect([invitation.mailed, invitation.notMailed]).toEqual([true, null]);
    const until = invitation.expiresAt.slice(0, 10);
    expect(smtp.received).toEqual([
      {
        from: '"Skillgate" <skillgate@example.com>',
        to: "new.person@example.com",
        subject: "You are invited to alpha on Skillgate",
        text: [
          "You are invited to join alpha on Skillgate as editor.",
          "",
          `Open this link to set a password (or sign in) and join: ${invitation.url}`,
          "",
          `It works once, until ${until}. If you did not expect it, ignore this mail.`,
          "",
        ].join("\n"),
      },
    ]);
  });

  it("keeps the invitation when the mail server refuses it, and answers mailed: false", async () => {
    const res = await t.call("POST", "/api/v1/invitations", { json: { email: "gone@bounces.example", role: "viewer" } });
    expect(res.status).toBe(201);
    const invitation = await res.json();
    expect([invitation.mailed, invitation.notMailed]).toEqual([
      false,
      "the mail server did not take the mail (the server's log says why): pass the link on",
    ]);
    expect(smtp.received).toEqual([]);
    const pending = await (await t.call("GET", "/api/v1/invitations")).json();
    expect(pending.invitations.map((i: { id: number; email: string }) => [i.id, i.email])).toEqual([
      [invitation.id, "gone@bounces.example"],
    ]);
  });

  it("without AUTH_URL, mails nothing, says why, and keeps the invitation and its link", async () => {
    vi.stubEnv("AUTH_URL", "");
    rereadEnv();
    const res = await t.call("POST", "/api/v1/invitations", { json: { email: "someone@example.com", role: "viewer" } });
    expect(res.status).toBe(201);
    const invitation = await res.json();
    expect([invitation.mailed, invitation.notMailed]).toEqual([
      false,
      "AUTH_URL is not set, so the link is not mailed: this server does not know the address people open it at. Pass the link on, or set AUTH_URL",
    ]);
    expect(invitation.url).toMatch(/^http:\/\/skillgate\.test\/invite\/sgv_[A-Za-z0-9_-]{32}$/);
    expect(smtp.received).toEqual([]);
    const pending = await (await t.call("GET", "/api/v1/invitations")).json();
    expect(pending.invitations.map((i: { id: number; email: string }) => [i.id, i.email])).toEqual([
      [invitation.id, "someone@example.com"],
    ]);
  });
});
