import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ensureUser, type User } from "@/lib/auth/users";
import { setMembership } from "@/lib/teams/teams";
import { useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { ORIGIN, inProcess } from "../helpers/oauth-flow";

/** A registration as an MCP client sends it (RFC 7591), with any body. */
const registerWith = (body: string, fetch = inProcess) =>
  fetch(`${ORIGIN}/api/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body });

const metadata = (redirect = "http://127.0.0.1:8976/callback") =>
  JSON.stringify({ client_name: "Claude Code", redirect_uris: [redirect], token_endpoint_auth_method: "none" });

/** What an answer is, whole: status, content type and body. */
async function answerOf(res: Response) {
  return { status: res.status, type: res.headers.get("content-type"), body: await res.json().catch(() => "not JSON") };
}

/**
 * OAuth abuse limits (issue 38, point 7): registration limited per address, clients that never
 * connected forgotten, a replayed code or refresh token revoking its grant, a wrong PKCE verifier
 * using the code up, and registration's refusals in RFC 7591's JSON.
 */
describe.each(testDbKinds)("OAuth abuse limits on %s", (kind) => {
  const t = useTestApp(kind);
  const clients: Client[] = [];
  let member: User;

  beforeEach(async () => {
    member = await ensureUser(t.app.db, "member@example.com", "a long enough password");
    await setMembership(t.app.db, t.alpha.team.id, member.id, "editor");
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})));
  });

  describe("registration's refusals", () => {
    it("answers malformed JSON, a body over 64 KiB and a bad redirect URI in RFC 7591's JSON, never HTML", async () => {
      expect(await answerOf(await registerWith('{"client_name": "Claude Code", "redirect_uris": ['))).toEqual({
        status: 400,
        type: "application/json",
        body: {
          error: "invalid_client_metadata",
          error_description: "the body is not valid JSON: send the client's metadata as one JSON object (RFC 7591)",
        },
      });
      const padded = JSON.stringify({ ...JSON.parse(metadata()), client_uri: `https://client.example/${"x".repeat(64 * 1024)}` });
      expect(await answerOf(await registerWith(padded))).toEqual({
        status: 413,
        type: "application/json",
        body: { error: "invalid_client_metadata", error_description: "request body is larger than 65536 bytes; send less at a time" },
      });
      expect(await answerOf(await registerWith(metadata("http://evil.example/cb")))).toEqual({
        status: 400,
        type: "application/json; charset=utf-8",
        body: {
          error: "invalid_redirect_uri",
          error_description:
            "redirect URI http://evil.example/cb is neither https, nor http on this machine (localhost), nor an app's own scheme",
        },
      });
      const rows = await t.app.database.query<{ n: number }>("select count(*)::int as n from oauth_clients", []);
      expect(rows).toEqual([{ n: 0 }]);
    });
  });
});
