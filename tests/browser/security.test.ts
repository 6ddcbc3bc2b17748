import { request } from "node:http";
import { applyPatch } from "diff";
import type { Browser, BrowserContext, Page, Request as PlaywrightRequest } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { holdScripts, launchBrowser, leadPage, signInAt } from "../helpers/browser";
import { credentialsSignIn } from "../helpers/sign-in";
import { waitFor } from "../helpers/wait";
import { BROWSER_KEY, BROWSER_LOGIN, LAB_KEY, MEMBER_LOGIN, OTHER_TEAM_KEY, THROTTLED_LOGIN } from "./server";

const baseUrl = inject("baseUrl");

/** A raw GET, so the path reaches the server exactly as written (fetch would normalize it). */
function rawGet(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(baseUrl);
    const req = request({ hostname, port, path, headers: { authorization: `Bearer ${BROWSER_KEY}`, ...headers } }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

describe("the built server at the edges of the contract", () => {
  it("answers paths it cannot decode with a 400 in the envelope, never a bare 500", async () => {
    const envelope = {
      error: {
        code: "InvalidPath",
        message: "the path holds a bad percent-encoding (each %XX must form valid UTF-8); encode the path again",
      },
    };
    for (const path of [
      "/api/v1/skills/%ff",
      "/api/v1/skills/writing-plans/files/%c0%ae%c0%ae/x",
      "/api/v1/ledger/%e2%28",
      "/api/nowhere/%ff",
    ]) {
      const res = await rawGet(path);
      expect(res.status, path).toBe(400);
      expect(JSON.parse(res.body), path).toEqual(envelope);
    }
    const page = await rawGet("/t/demo/skills/%ff");
    expect(page.status).toBe(400);
    expect(page.body).toBe("Bad request: the path holds a bad percent-encoding (each %XX must form valid UTF-8); encode the path again.\n");
    // A good encoding still reaches its route.
    expect((await rawGet("/api/v1/skills/writing%2Dplans")).status).toBe(200);
  });

  it("answers unknown API paths and wrong methods with the envelope, and a 405 says what is allowed", async () => {
    const unknown = await fetch(`${baseUrl}/api/v1/nothing-here`, { headers: { authorization: `Bearer ${BROWSER_KEY}` } });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).toBe("application/json");
    expect(await unknown.json()).toEqual({
      error: { code: "NotFound", message: "no route GET /api/v1/nothing-here; the routes are described at /api/v1/openapi.json" },
    });
    const wrong = await fetch(`${baseUrl}/api/v1/listing`, { method: "DELETE", headers: { authorization: `Bearer ${BROWSER_KEY}` } });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(await wrong.json()).toEqual({
      error: { code: "MethodNotAllowed", message: "DELETE is not allowed here; this route answers GET, HEAD, OPTIONS" },
    });
  });

  it("sends the security headers, a nonce-based CSP whose nonce is on every script, and HSTS only over HTTPS", async () => {
    const res = await fetch(`${baseUrl}/signin`);
    const csp = res.headers.get("content-security-policy")!;
    const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
    expect(nonce).toBeDefined();
    expect(csp).toBe(
      `default-src 'self'; script-src 'self' 'nonce-${nonce}' 'strict-dynamic'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; ` +
        "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(res.headers.get("strict-transport-security")).toBeNull();
    const scripts = [...(await res.text()).matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
    expect(scripts.length).toBeGreaterThan(3);
    for (const script of scripts) expect(script).toContain(`nonce="${nonce}"`);
    // Another response, another nonce.
    const again = (await fetch(`${baseUrl}/signin`)).headers.get("content-security-policy")!;
    expect(again).not.toContain(nonce!);

    const https = await fetch(`${baseUrl}/signin`, { headers: { "x-forwarded-proto": "https" } });
    expect(https.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    expect(https.headers.get("content-security-policy")).toMatch(/; upgrade-insecure-requests$/);
    const api = await fetch(`${baseUrl}/api/v1/listing`, { headers: { authorization: `Bearer ${BROWSER_KEY}` } });
    expect(api.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("sets the session cookie Secure behind HTTPS", async () => {
    const set = await credentialsSignIn(baseUrl, BROWSER_LOGIN, { "x-forwarded-proto": "https" });
    const session = set.find((cookie) => cookie.startsWith("__Secure-authjs.session-token="));
    expect(session).toBeDefined();
    expect(session!.split("; ").slice(1).sort()).toEqual(expect.arrayContaining(["HttpOnly", "Secure", "SameSite=Lax", "Path=/"]));
  });
});

/**
 * Sessions are what these tests are about: each that signs out or ends sessions signs in for a session
 * of its own (through the form, or through the endpoint the form ends in), never with the stored one.
 * The stored session only opens the settings page where End sessions is looked at, not pressed.
 */
describe("dashboard sessions in Chromium", () => {
  const signedInPage = async (login: { email: string; password: string }, url = `${baseUrl}/t/demo`) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.on("dialog", (dialog) => void dialog.accept());
    await signInAt(page, url, login);
    return { context, page };
  };
  /**
   * A page in a new context holding a new session of `login`, signed in through Auth.js's credentials
   * endpoint, the one the form's sign-in ends in: for the tests that sign in again and again, without
   * loading the form and the overview each time (2–3 s each).
   */
  const signedInOverHttp = async (login: { email: string; password: string }) => {
    const session = (await credentialsSignIn(baseUrl, login))
      .map((cookie) => cookie.split(";")[0]!)
      .find((cookie) => cookie.startsWith("authjs.session-token="));
    if (!session) throw new Error(`no session cookie for ${login.email}`);
    const context = await browser.newContext();
    const at = session.indexOf("=");
    await context.addCookies([{ name: session.slice(0, at), value: session.slice(at + 1), url: baseUrl, httpOnly: true, sameSite: "Lax" }]);
    const page = await context.newPage();
    page.on("dialog", (dialog) => void dialog.accept());
    return { context, page };
  };
  const isSignedOut = async (context: BrowserContext) => {
    const page = await context.newPage();
    await page.goto(`${baseUrl}/t/demo/settings`);
    const url = page.url();
    await page.close();
    return url.startsWith(`${baseUrl}/signin?callbackUrl=`);
  };

  it("ends the session on the server at sign-out: a copy of the cookie taken before opens nothing", async () => {
    const { context, page } = await signedInPage(BROWSER_LOGIN, `${baseUrl}/t/demo/settings`);
    const copied = await context.cookies();
    expect(copied.map((cookie) => cookie.name)).toContain("authjs.session-token");
    await page.click('button:has-text("Sign out")');
    await page.waitForURL(`${baseUrl}/signin`);
    const thief = await browser.newContext();
    await thief.addCookies(copied);
    expect(await isSignedOut(thief)).toBe(true);
    await thief.close();
    await context.close();
  });

  it("signs out every time, even when Sign out is clicked the moment a page has loaded", async () => {
    for (let i = 0; i < 6; i++) {
      const { context, page } = await signedInOverHttp(BROWSER_LOGIN);
      const copied = await context.cookies();
      // Requests not answered yet: a response's headers, where a cookie would be set, or a failure end one.
      const unanswered = new Set<PlaywrightRequest>();
      context.on("request", (req) => unanswered.add(req));
      context.on("response", (res) => unanswered.delete(res.request()));
      context.on("requestfailed", (req) => unanswered.delete(req));
      await page.goto(`${baseUrl}/t/demo/listing`, { waitUntil: "commit" });
      // Signed in: not sent to the sign-in page.
      expect(page.url(), `attempt ${i + 1}`).toBe(`${baseUrl}/t/demo/listing`);
      await page.click('button:has-text("Sign out")');
      await page.waitForURL(`${baseUrl}/signin`);
      // Prefetches in flight may set the cookie again: once they are answered, it must name an ended session.
      const atSignOut = [...unanswered];
      await waitFor(() => atSignOut.every((req) => !unanswered.has(req)), {
        what: `the requests in flight at sign-out to be answered (attempt ${i + 1})`,
      });
      expect(await isSignedOut(context), `attempt ${i + 1}`).toBe(true);
      const thief = await browser.newContext();
      await thief.addCookies(copied);
      expect(await isSignedOut(thief), `attempt ${i + 1}, copied cookie`).toBe(true);
      await thief.close();
      await context.close();
    }
  });

  it("lets a lead see a member's sessions and end them: the member is signed out at their next click", async () => {
    const member = await signedInPage(MEMBER_LOGIN);
    const lead = await signedInPage(BROWSER_LOGIN, `${baseUrl}/t/demo/settings`);
    const row = lead.page.locator(`tr[data-member="${MEMBER_LOGIN.email}"]`);
    expect(await row.locator('[data-testid="sessions"]').textContent()).toMatch(/^1 active, last seen (just now|\d+ min ago)$/);
    await row.locator('button:has-text("End sessions")').click();
    await row.locator('p[role="status"]').waitFor();
    expect(await row.locator('p[role="status"]').textContent()).toBe(`Ended 1 session of ${MEMBER_LOGIN.email}.`);
    await member.page.goto(`${baseUrl}/t/demo/ledger`);
    expect(member.page.url()).toBe(`${baseUrl}/signin?callbackUrl=${encodeURIComponent("/t/demo/ledger")}`);
    expect(await row.locator('[data-testid="sessions"]').textContent()).toBe("none");
    expect(await isSignedOut(lead.context)).toBe(false);
    await member.context.close();
    await lead.context.close();
  });
  it("keeps End sessions disabled until its script runs: it asks first, and clicked before the script it would have ended them without asking", async () => {
    const page = await leadPage(browser);
    const scripts = await holdScripts(page.context());
    try {
      await page.goto(`${baseUrl}/t/demo/settings`, { waitUntil: "commit" });
      const button = page.locator(`tr[data-member="${BROWSER_LOGIN.email}"] button:has-text("End sessions")`);
      await button.waitFor({ state: "attached" });
      expect(scripts.held()).toBeGreaterThan(0);
      const early = await button.isDisabled();
      await scripts.release();
      await waitFor(async () => !(await button.isDisabled()), { what: "End sessions to be enabled once the script runs" });
      expect(early).toBe(true);
    } finally {
      await scripts.release();
      await page.context().close();
    }
  });
});

describe("sign-in throttling through the sign-in page", () => {
  const attempt = async (page: Page, password: string) => {
    await page.goto(`${baseUrl}/signin?callbackUrl=%2Ft%2Fdemo`);
    await page.fill('input[name="email"]', THROTTLED_LOGIN.email);
    await page.fill('input[name="password"]', password);
    await page.click('button[type="submit"]');
    const alert = page.locator('p[role="alert"]');
    await Promise.race([page.waitForURL((url) => url.pathname !== "/signin"), alert.waitFor()]);
    return new URL(page.url()).pathname === "/signin" ? await alert.textContent() : "signed in";
  };

  it("refuses the sixth attempt from an address for 15 minutes, the right password too, and says when to retry; the owner elsewhere is not locked out", async () => {
    const guesser = await browser.newContext({ extraHTTPHeaders: { "x-forwarded-for": "198.51.100.23" } });
    const page = await guesser.newPage();
    for (let i = 0; i < 5; i++) expect(await attempt(page, `guess ${i}`)).toBe("That email and password do not match an account.");
    expect(await attempt(page, "guess 5")).toBe("Too many failed sign-ins. Try again in 15 minutes.");
    expect(await attempt(page, THROTTLED_LOGIN.password)).toBe("Too many failed sign-ins. Try again in 15 minutes.");
    const owner = await browser.newContext({ extraHTTPHeaders: { "x-forwarded-for": "198.51.100.24" } });
    expect(await attempt(await owner.newPage(), THROTTLED_LOGIN.password)).toBe("signed in");
    await guesser.close();
    await owner.close();
  });
});

describe("sign-in throttling through an invitation", () => {
  const invite = async (key: string, email: string): Promise<string> => {
    const res = await fetch(`${baseUrl}/api/v1/invitations`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ email, role: "viewer" }),
    });
    expect(res.status).toBe(201);
    return (await res.json()).url;
  };

  it("counts wrong passwords typed on an invitation with the sign-in page's: the sixth is refused, the right one too", async () => {
    const email = "guessed@example.com";
    const password = "the owner's long password";
    const owner = await browser.newContext({ extraHTTPHeaders: { "x-forwarded-for": "198.51.100.41" } });
    const joining = await owner.newPage();
    await joining.goto(await invite(BROWSER_KEY, email));
    await joining.fill('input[name="password"]', password);
    await joining.fill('input[name="confirm"]', password);
    await joining.click("text=Set password and join");
    await joining.waitForURL(`${baseUrl}/t/demo`);
    await owner.close();

    // Whoever holds the next link does not hold the password: guessing it is throttled like /signin.
    const guesser = await browser.newContext({ extraHTTPHeaders: { "x-forwarded-for": "198.51.100.42" } });
    const page = await guesser.newPage();
    await page.goto(await invite(OTHER_TEAM_KEY, email));
    const attempt = async (guess: string) => {
      await page.fill('input[name="password"]', guess);
      await page.click("text=Sign in and join");
      await page.locator('p[role="alert"]').waitFor();
      const message = await page.textContent('p[role="alert"]');
      await page.reload();
      return message;
    };
    for (let i = 0; i < 5; i++) expect(await attempt(`guess ${i}`)).toBe(`That is not the password of ${email}.`);
    expect(await attempt("guess 5")).toBe("Too many failed sign-ins. Try again in 15 minutes.");
    expect(await attempt(password)).toBe("Too many failed sign-ins. Try again in 15 minutes.");
    // The same count holds on the sign-in page from that address.
    await page.goto(`${baseUrl}/signin`);
    await page.fill('input[name="email"]', email);
    await page.fill('input[name="password"]', password);
    await page.click('button[type="submit"]');
    await page.locator('p[role="alert"]').waitFor();
    expect(await page.textContent('p[role="alert"]')).toBe("Too many failed sign-ins. Try again in 15 minutes.");
    await guesser.close();
  });
});

describe("a skill with a large body", () => {
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${baseUrl}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${LAB_KEY}`, "content-type": "application/json", ...init.headers },
    });
  const body = (word: string) => {
    let text = "# Large\n\n";
    for (let i = 0; Buffer.byteLength(text) < 225 * 1024; i++)
      text += `${i % 40 === 0 ? "\n## Part\n\n" : ""}- ${word} ${i}: **check** the \`thing\` and [note](https://example.com/${i}) it.\n`;
    return text;
  };

  it("renders a page proportional to the body, with a side-by-side diff that stays bounded however much two versions differ", async () => {
    const v1 = body("Step");
    const v2 = body("Item");
    expect(
      (
        await api("/api/v1/skills", {
          method: "POST",
          body: JSON.stringify({ name: "large-body", description: "Large. Use when testing size.", body: v1, status: "active" }),
        })
      ).status,
    ).toBe(201);
    expect((await api("/api/v1/skills/large-body", { method: "PUT", body: JSON.stringify({ body: v2, expectedVersion: 1 }) })).status).toBe(
      200,
    );
    const patch = await (await api("/api/v1/skills/large-body/diff?from=1&to=2")).text();
    const skillMd = (text: string) => `---\nname: large-body\ndescription: Large. Use when testing size.\n---\n${text}`;
    expect(applyPatch(skillMd(v1), patch)).toBe(skillMd(v2));

    const page = await leadPage(browser);
    const html = await (await page.goto(`${baseUrl}/t/lab/skills/large-body`))!.text();
    const bodyBytes = Buffer.byteLength(v2);
    // The old page sent the body about 15 times over (3.3 MB). Now: the rendered body twice (the HTML and
    // React's payload), the editor's text once and a diff of at most 300 rows.
    expect(html.length).toBeLessThan(7 * bodyBytes);
    const diff = page.locator('section[aria-label="Versions"] [data-testid="side-by-side"]');
    expect(await diff.locator("tbody tr").count()).toBe(301);
    expect(await diff.locator("tbody tr").last().textContent()).toMatch(
      /^… [\d,]+ more rows not shown here; the API's diff route \(GET \/api\/v1\/skills\/<name>\/diff\) has every line$/,
    );
    expect(await page.locator('[data-testid="rendered-body"] li').count()).toBeGreaterThan(3000);
    await page.context().close();
  });
});
