import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { rereadEnv } from "@/lib/env";
import type { Mail, Mailer } from "@/lib/mail/mailer";
import { useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";

/** A request whose every header names another host, as anyone may send. */
const HOSTILE = { host: "evil.test", "x-forwarded-host": "evil.test", "x-forwarded-proto": "https" };
const NO_PUBLIC_URL =
  "AUTH_URL is not set, so the link is not mailed: this server does not know the address people open it at. Pass the link on, or set AUTH_URL";

/** The configuration of one describe block, read again for each test and dropped after it. */
function useEnv(values: Record<string, string>) {
  beforeEach(() => {
    // Blank is unset (lib/env.ts): whatever the shell running the tests has, these are the values.
    for (const name of ["AUTH_URL", "SKILLGATE_TRUST_PROXY", "PORT"]) vi.stubEnv(name, values[name] ?? "");
    rereadEnv();
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    rereadEnv();
  });
}

/** Issue 25: links handed out (install links, invitations, mailed invitations) carry the public URL, never a client's Host. */
describe.each(testDbKinds)("links handed out on %s", (kind) => {
  const sent: Mail[] = [];
  const mailer: Mailer = { send: async (mail) => void sent.push(mail) };
  const t = useTestApp(kind, { mailer });
  beforeEach(() => {
    sent.length = 0;
  });

  const installLink = async (headers: Record<string, string>) => {
    const res = await t.call("POST", "/api/v1/install-links", { headers });
    expect(res.status).toBe(201);
    return (await res.json()) as { id: number; url: string; token: string };
  };
  const invitation = async (headers: Record<string, string>, email = "new.person@example.com") => {
    const res = await t.call("POST", "/api/v1/invitations", { json: { email, role: "viewer" }, headers });
    expect(res.status).toBe(201);
    return (await res.json()) as { id: number; url: string; mailed: boolean; notMailed: string | null; expiresAt: string };
  };
  const pendingEmails = async () => {
    const body = (await (await t.call("GET", "/api/v1/invitations")).json()) as { invitations: { email: string }[] };
    return body.invitations.map((i) => i.email);
  };

  describe("with AUTH_URL set", () => {
    useEnv({ AUTH_URL: "https://skills.example.com" });

    it("builds install links on AUTH_URL whatever Host and X-Forwarded-Host say", async () => {
      const link = await installLink(HOSTILE);
      expect(link.url).toBe(`https://skills.example.com/i/${link.token}`);
    });

    it("builds and mails invitation links on AUTH_URL", async () => {
      const invited = await invitation(HOSTILE);
      expect(invited.url).toMatch(/^https:\/\/skills\.example\.com\/invite\/sgv_[A-Za-z0-9_-]{32}$/);
      expect([invited.mailed, invited.notMailed]).toEqual([true, null]);
      expect(sent.map((mail) => mail.to)).toEqual(["new.person@example.com"]);
      expect(sent[0]!.text).toContain(`Open this link to set a password (or sign in) and join: ${invited.url}\n`);
      expect(sent[0]!.text).not.toContain("evil.test");
    });
  });

  describe("without AUTH_URL", () => {
    useEnv({});

    it("never puts a forwarded or foreign host in a link: the address the server serves on stands in", async () => {
      const link = await installLink(HOSTILE);
      // t.call's request URL stands for the one Next builds from its own host and port.
      expect(link.url).toBe(`http://skillgate.test/i/${link.token}`);
      const invited = await invitation(HOSTILE);
      expect(invited.url).toMatch(/^http:\/\/skillgate\.test\/invite\/sgv_[A-Za-z0-9_-]{32}$/);
    });

    it("takes Host when it is loopback, and still not X-Forwarded-Host", async () => {
      const link = await installLink({ ...HOSTILE, host: "127.0.0.1:3123" });
      expect(link.url).toBe(`http://127.0.0.1:3123/i/${link.token}`);
    });

    it("does not mail the invitation, says why, and keeps it with its link to pass on", async () => {
      const invited = await invitation({ host: "localhost:3000" });
      expect(invited.url).toMatch(/^http:\/\/localhost:3000\/invite\/sgv_[A-Za-z0-9_-]{32}$/);
      expect([invited.mailed, invited.notMailed]).toEqual([false, NO_PUBLIC_URL]);
      expect(sent).toEqual([]);
      expect(await pendingEmails()).toEqual(["new.person@example.com"]);
    });
  });

  describe("with SKILLGATE_TRUST_PROXY=1 and no AUTH_URL", () => {
    useEnv({ SKILLGATE_TRUST_PROXY: "1" });

    it("builds links on the host and scheme the proxy forwarded, but mails none", async () => {
      const proxied = { host: "10.0.0.5:3000", "x-forwarded-host": "skills.corp.example", "x-forwarded-proto": "https" };
      const link = await installLink(proxied);
      expect(link.url).toBe(`https://skills.corp.example/i/${link.token}`);
      const invited = await invitation(proxied);
      expect(invited.url).toMatch(/^https:\/\/skills\.corp\.example\/invite\/sgv_[A-Za-z0-9_-]{32}$/);
      expect([invited.mailed, invited.notMailed]).toEqual([false, NO_PUBLIC_URL]);
      expect(sent).toEqual([]);
    });
  });
});

describe.each(testDbKinds)("an invitation with no mail server on %s", (kind) => {
  const t = useTestApp(kind);
  useEnv({ AUTH_URL: "https://skills.example.com" });

  it("says no mail server is configured", async () => {
    const res = await t.call("POST", "/api/v1/invitations", { json: { email: "someone@example.com", role: "editor" } });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect([body.mailed, body.notMailed]).toEqual([false, "no mail server is configured (SKILLGATE_SMTP_URL): pass the link on"]);
    expect(body.url).toMatch(/^https:\/\/skills\.example\.com\/invite\/sgv_/);
  });
});
