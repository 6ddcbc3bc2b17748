import { afterEach, describe, expect, it, vi } from "vitest";
import { githubAccountEmail, githubVerifiedEmails } from "@/lib/auth/github-emails";

/** What a GitHub account proves (docs/teams-and-keys.md#members-and-invitations): the addresses GitHub verified, and nothing on a bad answer. */
describe("a GitHub account's verified addresses", () => {
  const answering = (status: number, body: unknown) => {
    const seen: { url: string; auth: string | null }[] = [];
    const fetchImpl = (async (url: string, init: RequestInit) => {
      seen.push({ url, auth: new Headers(init.headers).get("authorization") });
      return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
    }) as unknown as typeof fetch;
    return { fetchImpl, seen };
  };

  it("keeps the verified ones, lowercased and once each, asking /user/emails with the account's token", async () => {
    const { fetchImpl, seen } = answering(200, [
      { email: "work@corp.example", verified: true, primary: false },
      { email: "Octo@Example.com", verified: true, primary: true },
      { email: "octo@example.com", verified: true, primary: false },
      { email: "unverified@example.com", verified: false, primary: false },
    ]);
    // The primary address first: it is the one an account without a verified profile address signs in as.
    expect(await githubVerifiedEmails("gho_token", fetchImpl)).toEqual(["octo@example.com", "work@corp.example"]);
    expect(seen).toEqual([{ url: "https://api.github.com/user/emails", auth: "Bearer gho_token" }]);
  });

  afterEach(() => vi.restoreAllMocks());

  it("proves nothing when GitHub refuses, answers something else, or cannot be reached, and logs why", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(await githubVerifiedEmails("t", answering(401, { message: "Bad credentials" }).fetchImpl)).toEqual([]);
    expect(await githubVerifiedEmails("t", answering(200, { emails: ["a@b.c"] }).fetchImpl)).toEqual([]);
    const unreachable = (async () => {
      throw new TypeError("fetch failed");
    }) as unknown as typeof fetch;
    expect(await githubVerifiedEmails("t", unreachable)).toEqual([]);
    const failed = "skillgate: GitHub sign-in: reading the account's verified addresses (GET /user/emails)";
    expect(logged.mock.calls.map(([line]) => String(line).split("\n")[0])).toEqual([
      `${failed}: GitHub answered 401`,
      `${failed}: GitHub's answer is not a list of addresses`,
      `${failed}: fetch failed`,
    ]);
  });

  it("signs an account in as its profile address only when GitHub verified it", () => {
    expect(githubAccountEmail("Octo@Example.com", ["octo@example.com", "work@corp.example"], "42")).toBe("octo@example.com");
    expect(githubAccountEmail("victim@example.com", ["octo@example.com"], "42")).toBe("octo@example.com");
    expect(githubAccountEmail(null, [], "42")).toBe("42@users.noreply.github.com");
    expect(githubAccountEmail("victim@example.com", [], "42")).toBe("42@users.noreply.github.com");
  });
});
