import { describe, expect, it } from "vitest";
import { clientAddress } from "@/lib/auth/sign-in-throttle";

describe("the client's address", () => {
  it("takes the client's address from the last hop of X-Forwarded-For", () => {
    expect(clientAddress(new Headers({ "x-forwarded-for": "1.2.3.4, 10.0.0.7" }))).toBe("10.0.0.7");
    expect(clientAddress(new Headers({ "x-forwarded-for": "10.0.0.7" }))).toBe("10.0.0.7");
    expect(clientAddress(new Headers({ "x-real-ip": "10.0.0.8" }))).toBe("10.0.0.8");
    expect(clientAddress(new Headers())).toBe("unknown");
  });
});
