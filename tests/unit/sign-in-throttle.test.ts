import { describe, expect, it } from "vitest";
import { clientAddress, SignInThrottle } from "@/lib/auth/sign-in-throttle";

describe("sign-in throttling", () => {
  it("refuses an account from an address after 5 failures, for the rest of 15 minutes", async () => {
    const throttle = new SignInThrottle();
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
    const throttle = new SignInThrottle();
    for (let i = 0; i < 4; i++) await throttle.failed("ada@example.test", "10.0.0.1");
    await throttle.succeeded("ada@example.test", "10.0.0.1");
    for (let i = 0; i < 4; i++) await throttle.failed("ada@example.test", "10.0.0.1");
    expect(await throttle.retryAfter("ada@example.test", "10.0.0.1")).toBeNull();
  });

  it("refuses an address that sprays many accounts after 30 failures", async () => {
    const throttle = new SignInThrottle();
    for (let i = 0; i < 30; i++) await throttle.failed(`user${i}@example.test`, "10.0.0.9");
    expect(await throttle.retryAfter("someone-new@example.test", "10.0.0.9")).toBeGreaterThan(3500);
    expect(await throttle.retryAfter("someone-new@example.test", "10.0.0.10")).toBeNull();
  });

  it("refuses an account guessed from 50 addresses, except from an address it signed in from", async () => {
    const throttle = new SignInThrottle();
    await throttle.succeeded("ada@example.test", "192.168.1.5");
    for (let i = 0; i < 50; i++) await throttle.failed("ada@example.test", `203.0.113.${i}`);
    expect(await throttle.retryAfter("ada@example.test", "198.51.100.1")).toBeGreaterThan(3500);
    expect(await throttle.retryAfter("ada@example.test", "192.168.1.5")).toBeNull();
  });

  it("takes the client's address from the last hop of X-Forwarded-For", () => {
    expect(clientAddress(new Headers({ "x-forwarded-for": "1.2.3.4, 10.0.0.7" }))).toBe("10.0.0.7");
    expect(clientAddress(new Headers({ "x-forwarded-for": "10.0.0.7" }))).toBe("10.0.0.7");
    expect(clientAddress(new Headers({ "x-real-ip": "10.0.0.8" }))).toBe("10.0.0.8");
    expect(clientAddress(new Headers())).toBe("unknown");
  });
});
