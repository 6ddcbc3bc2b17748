import { describe, expect, it } from "vitest";
import { anotherInstance, useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";

/** Sign-in throttling (ASVS V2.2.1), counted in the database so every instance shares it (issue 14). */
describe.each(testDbKinds)("sign-in throttling on %s", (kind) => {
  const t = useTestApp(kind);

  it("refuses an account from an address after 5 failures, for the rest of 15 minutes", async () => {
    const throttle = t.app.signInThrottle;
    for (let i = 0; i < 5; i++) {
      expect(await throttle.retryAfter("ada@example.test", "10.0.0.1")).toBeNull();
      await throttle.failed("ada@example.test", "10.0.0.1");
    }
    const wait = await throttle.retryAfter("Ada@Example.test ", "10.0.0.1");
    expect(wait).toBeGreaterThan(890);
    expect(wait).toBeLessThanOrEqual(900);
    // The owner, from elsewhere, is not locked out.
    expect(await throttle.retryAfter("ada@example.test", "10.0.0.2")).toBeNull();
  });

  it("clears the count of an address when the sign-in succeeds", async () => {
    const throttle = t.app.signInThrottle;
    for (let i = 0; i < 4; i++) await throttle.failed("ada@example.test", "10.0.0.1");
    await throttle.succeeded("ada@example.test", "10.0.0.1");
    for (let i = 0; i < 4; i++) await throttle.failed("ada@example.test", "10.0.0.1");
    expect(await throttle.retryAfter("ada@example.test", "10.0.0.1")).toBeNull();
  });

  it("refuses an address that sprays many accounts after 30 failures", async () => {
    const throttle = t.app.signInThrottle;
    for (let i = 0; i < 30; i++) await throttle.failed(`user${i}@example.test`, "10.0.0.9");
    expect(await throttle.retryAfter("someone-new@example.test", "10.0.0.9")).toBeGreaterThan(3500);
    expect(await throttle.retryAfter("someone-new@example.test", "10.0.0.10")).toBeNull();
  });

  it("refuses an account guessed from 50 addresses, except from an address it signed in from", async () => {
    const throttle = t.app.signInThrottle;
    await throttle.succeeded("ada@example.test", "192.168.1.5");
    for (let i = 0; i < 50; i++) await throttle.failed("ada@example.test", `203.0.113.${i}`);
    expect(await throttle.retryAfter("ada@example.test", "198.51.100.1")).toBeGreaterThan(3500);
    expect(await throttle.retryAfter("ada@example.test", "192.168.1.5")).toBeNull();
  });

  it("counts failures on one instance against attempts on another", async () => {
    const other = anotherInstance(t.app);
    try {
      for (let i = 0; i < 3; i++) await t.app.signInThrottle.failed("ada@example.test", "10.0.0.1");
      for (let i = 0; i < 2; i++) await other.signInThrottle.failed("ada@example.test", "10.0.0.1");
      expect(await other.signInThrottle.retryAfter("ada@example.test", "10.0.0.1")).toBeGreaterThan(890);
      expect(await t.app.signInThrottle.retryAfter("ada@example.test", "10.0.0.1")).toBeGreaterThan(890);
    } finally {
      await other.close();
    }
  });
});
