import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, seriousViolations } from "../helpers/browser";
import { MemoryOAuthClient } from "../helpers/oauth-client";
import { BROWSER_LOGIN, OAUTH_KEY } from "./server";

const baseUrl = inject("baseUrl");
const MCP_URL = new URL(`${baseUrl}/api/mcp`);

/**
 * `claude mcp add --transport http skillgate <url>/api/mcp` as the MCP SDK's client performs it:
 * a 401 names the metadata, the client registers and opens the member's browser (here headless
 * Chromium) at the authorization endpoint; the member signs in with the dashboard's own sign-in,
 * consents, and the browser lands on the client's loopback callback with the code.
 */
describe("an MCP client signed in with OAuth, through Chromium", () => {
  let browser: Browser;
  let callback: Server;
  let redirectUrl: string;
  /** What the client's loopback callback was sent, in order. */
  const landed: URLSearchParams[] = [];
  const clients: Client[] = [];

  beforeAll(async () => {
    callback = createServer((req, res) => {
      // Only the callback: Chromium also asks this origin for its favicon.
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      if (url.pathname === "/callback") landed.push(url.searchParams);
      res.writeHead(200, { "content-type": "text/plain" }).end("You can close this window.");
    });
    await new Promise<void>((resolve) => callback.listen(0, "127.0.0.1", resolve));
    redirectUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
    browser = await launchBrowser();
    const synced = await fetch(`${baseUrl}/api/v1/skills/sync`, {
      method: "POST",
      headers: { authorization: `Bearer ${OAUTH_KEY}`, "content-type": "application/json" },
      body: JSON.stringify({
        files: [
          {
            path: "oauth-kit/SKILL.md",
            content: "---\nname: oauth-kit\ndescription: Sets up a connection. Use when connecting a client.\n---\n# Kit\n",
          },
          { path: "oauth-kit/notes/setup.md", content: "# Setup\n" },
        ],
      }),
    });
    expect(synced.status).toBe(200);
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => {})));
    await browser?.close();
    callback?.close();
  });

  /** The client's first connect: refused, with the browser to open. */
  async function startSignIn(provider: MemoryOAuthClient): Promise<StreamableHTTPClientTransport> {
    const transport = new StreamableHTTPClientTransport(MCP_URL, { authProvider: provider });
    await expect(new Client({ name: "oauth-browser-test", version: "1" }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.authorizationUrl?.href.startsWith(`${baseUrl}/api/oauth/authorize?`)).toBe(true);
    return transport;
  }

  /** The member's part, in the browser: sign in if asked, choose team and access, and answer. */
  async function answerInBrowser(page: Page, provider: MemoryOAuthClient, answer: "Allow" | "Refuse", level = "write") {
    const before = landed.length;
    await page.goto(provider.authorizationUrl!.href);
    if (page.url().startsWith(`${baseUrl}/signin`)) {
      expect(await page.textContent('[data-testid="sign-in-purpose"]')).toBe(
        "An MCP client asks to connect as you: sign in, then choose the team and what it may do.",
      );
      await page.fill('input[name="email"]', BROWSER_LOGIN.email);
      await page.fill('input[name="password"]', BROWSER_LOGIN.password);
      await page.click('button[type="submit"]');
    }
    await page.waitForURL(/\/oauth\/consent\?request=/);
    expect(await page.textContent("h1")).toBe("Connect an MCP client");
    expect(await page.textContent('[data-testid="consent-client"]')).toBe("oauth-browser-client");
    expect(await seriousViolations(page, page.url())).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);
    await page.screenshot({ path: `/tmp/oauth-consent-${page.viewportSize()!.width}.png`, fullPage: true });
    await page.selectOption('select[name="team"]', "oauth");
    await page.check(`input[name="level"][value="${level}"]`);
    await page.click(`button:text-is("${answer}")`);
    await page.waitForURL(new RegExp(`^${redirectUrl}`));
    expect(landed.length).toBe(before + 1);
    return landed[landed.length - 1]!;
  }

  it("connects with a browser sign-in and no key, and calls every tool as the member", async () => {
    const provider = new MemoryOAuthClient("", "oauth-browser-client");
    Object.defineProperty(provider, "redirectUrl", { value: redirectUrl });
    const transport = await startSignIn(provider);
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const params = await answerInBrowser(page, provider, "Allow");
    expect(params.get("state")).toBe(provider.authorizationUrl!.searchParams.get("state"));
    await transport.finishAuth(params.get("code")!);

    const client = new Client({ name: "oauth-browser-test", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(MCP_URL, { authProvider: provider }));
    clients.push(client);
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = (await client.callTool({ name, arguments: args })) as { content: { text: string }[]; isError?: boolean };
      return { text: result.content[0]!.text, ok: !result.isError };
    };
    const listing = await fetch(`${baseUrl}/api/v1/listing?full=true`, { headers: { authorization: `Bearer ${OAUTH_KEY}` } });
    expect(await call("skill_list", {})).toEqual({ text: await listing.text(), ok: true });
    const created = await call("skill_manage", {
      action: "create",
      name: "oauth-made",
      description: "Made by a client signed in with OAuth. Use when checking connections.",
      body: "# Made\n",
    });
    expect(created.ok).toBe(true);
    expect((await call("skill_view", { name: "oauth-made" })).text).toContain("# Made");
    expect(await call("skill_file", { name: "oauth-kit", path: "notes/setup.md" })).toEqual({ text: "# Setup\n", ok: true });
    expect(await call("skill_manage", { action: "lint", name: "oauth-made" })).toMatchObject({ ok: true });
    expect(await call("experiment", { action: "list", slug: "oauth-plan" })).toMatchObject({ ok: true });
    expect(
      await call("record_observation", { skill: "oauth-made", task: "check the connection", category: "setup", outcome: "success" }),
    ).toMatchObject({
      ok: true,
    });
    // A draft needs a lead's admin access to go live: this connection holds write.
    expect(await call("skill_manage", { action: "promote", name: "oauth-made" })).toEqual({
      text: 'this connection was allowed "write" access, which does not include "admin"; sign the client in again and allow "admin", if your role permits it',
      ok: false,
    });
    await page.close();
  });

  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    it(`lists the connection on the settings page at ${viewport.width} px, where revoking it ends the client's access`, async () => {
      const provider = new MemoryOAuthClient("", "oauth-browser-client");
      Object.defineProperty(provider, "redirectUrl", { value: redirectUrl });
      const transport = await startSignIn(provider);
      const page = await browser.newPage({ viewport });
      page.on("dialog", (dialog) => void dialog.accept());
      await transport.finishAuth((await answerInBrowser(page, provider, "Allow", "read")).get("code")!);
      const client = new Client({ name: "oauth-browser-test", version: "1" });
      await client.connect(new StreamableHTTPClientTransport(MCP_URL, { authProvider: provider }));
      clients.push(client);
      expect(((await client.callTool({ name: "skill_list", arguments: {} })) as { isError?: boolean }).isError).toBeFalsy();

      expect(await seriousViolations(page, `${baseUrl}/t/oauth/settings`)).toEqual([]);
      const section = page.locator('section[aria-label="MCP clients signed in"]');
      const row = section.locator("tbody tr").filter({ hasText: "read", has: page.locator('button:text-is("Revoke")') });
      expect(await row.locator("td").allTextContents()).toEqual([
        "oauth-browser-client",
        BROWSER_LOGIN.email,
        "read",
        "just now",
        "Revoke",
      ]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await page.screenshot({ path: `/tmp/oauth-settings-${viewport.width}.png`, fullPage: true });
      await row.locator('button:text-is("Revoke")').click();
      await section.locator('[data-action-message="done"]').waitFor();
      expect(await section.locator('[data-action-message="done"]').textContent()).toBe(
        "Connection revoked: that client must sign in again.",
      );
      await expect(client.callTool({ name: "skill_list", arguments: {} })).rejects.toThrow();
      await page.close();
    });
  }

  it("sends the client back with access_denied when the member refuses, and the page is spent", async () => {
    const provider = new MemoryOAuthClient("", "oauth-browser-client");
    Object.defineProperty(provider, "redirectUrl", { value: redirectUrl });
    await startSignIn(provider);
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const params = await answerInBrowser(page, provider, "Refuse");
    expect([params.get("error"), params.get("code")]).toEqual(["access_denied", null]);
    await page.goBack();
    await page.reload();
    expect(await page.textContent('[data-testid="consent-gone"]')).toBe(
      "This sign-in request has expired or was already answered: start again from your MCP client.",
    );
    expect(await seriousViolations(page, page.url())).toEqual([]);
    await page.close();
  });
});
