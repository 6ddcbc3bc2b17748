export interface WaitOptions {
  /** What the test waits for, as its failure names it: "the run's first result". */
  what: string;
  /** How long the condition may take: long enough for a loaded machine, shorter than the test's own timeout. */
  timeoutMs?: number;
  /** The pause between two reads. */
  intervalMs?: number;
}

/**
 * Waits for a condition, not for a time: reads until `done` holds for what was read, and returns
 * that. Once `timeoutMs` have passed it fails, naming what it waited for and the last value read.
 * An error `read` throws is not retried: catch one that is a step on the way to the condition (a
 * server not listening yet).
 */
export async function waitUntil<T>(read: () => T | Promise<T>, done: (value: T) => boolean, options: WaitOptions): Promise<T> {
  const { what, timeoutMs = 20_000, intervalMs = 10 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() >= deadline) throw new Error(`waited ${timeoutMs} ms for ${what}, in vain; last read: ${shown(value)}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Waits until `check` says yes (see waitUntil). */
export async function waitFor(check: () => boolean | Promise<boolean>, options: WaitOptions): Promise<void> {
  await waitUntil(check, (ok) => ok, options);
}

function shown(value: unknown): string {
  try {
    return (JSON.stringify(value) ?? String(value)).slice(0, 300);
  } catch {
    return String(value);
  }
}
