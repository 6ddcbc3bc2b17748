import { chromium, type Browser, type Page } from "playwright-core";
import { findChromium } from "../../scripts/chromium.mjs";

/** Debian's Chromium, headless, with the flags that keep it off the network; Playwright gives it a fresh profile. */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error("Chromium is missing: install it with `apt-get install chromium` (or set CHROMIUM_PATH)");
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
}

/** Opens `url` signed out, signs in on the page it is sent to, and waits to be back at `url`. */
export async function signInAt(page: Page, url: string, login: { email: string; password: string }): Promise<void> {
  await page.goto(url);
  await page.waitForURL(/\/signin\?callbackUrl=/);
  await page.fill('input[name="email"]', login.email);
  await page.fill('input[name="password"]', login.password);
  await page.click('button[type="submit"]');
  await page.waitForURL(url);
}
