import { chromium, type Browser } from "playwright-core";
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
