import type { App } from "./contracts/app";

/**
 * The process's one App, for code that Next calls with no way to hand it one (route handlers,
 * pages, the proxy, Auth.js callbacks). The composition root (lib/root/boot.ts) says how to boot
 * it, once, from instrumentation.ts; tests install an app of their own. This module sits at the
 * bottom so that delivery code can read the App without importing the root that builds it.
 *
 * It lives on `globalThis` because Next bundles route handlers, pages and instrumentation
 * separately: a module-level variable would exist once per bundle.
 */
interface Slot {
  boot?: () => Promise<App>;
  app?: Promise<App>;
  /** The App once `app` has resolved: what a request reads without awaiting (docs/hot-path.md). */
  booted?: App;
}

const holder = globalThis as typeof globalThis & { __skillgate?: Slot };

function slot(): Slot {
  holder.__skillgate ??= {};
  return holder.__skillgate;
}

/** The App, booted on first use; a boot that fails is tried again by the next caller. */
export function getApp(): Promise<App> {
  const current = slot();
  if (!current.app) {
    const boot = current.boot;
    if (!boot) return Promise.reject(new Error("skillgate was not started: instrumentation.ts starts it (lib/root/start-up.ts)"));
    const booting = boot().then(
      (app) => {
        if (current.app === booting) current.booted = app;
        return app;
      },
      (error: unknown) => {
        current.app = undefined;
        throw error;
      },
    );
    current.app = booting;
  }
  return current.app;
}

/** The App if it has booted, without waiting: the request pipeline's way in, a promise fewer per request. */
export function bootedApp(): App | undefined {
  return slot().booted;
}

/** How to boot the App; the composition root calls this once at start-up. */
export function provideBoot(boot: () => Promise<App>): void {
  slot().boot = boot;
}

/** Tests install an app of their own (an in-memory database, fixed folders); the returned function puts back the one before. */
export function installApp(app: App): () => void {
  const current = slot();
  const previous = { app: current.app, booted: current.booted };
  current.app = Promise.resolve(app);
  current.booted = app;
  return () => {
    current.app = previous.app;
    current.booted = previous.booted;
  };
}
