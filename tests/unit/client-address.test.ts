import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { addressesFromSockets, clientAddress } from "@/lib/client-address";
import { readEnv } from "@/lib/env";

/** What a server's handler reads of X-Forwarded-For, for a request that sent `sent`. */
async function forwardedForSeen(sent: string): Promise<string | undefined> {
  const server = createServer((req, res) => res.end(JSON.stringify(req.headers["x-forwarded-for"] ?? null)));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
      headers: { "x-forwarded-for": sent, "x-real-ip": sent },
    });
    return (await res.json()) ?? undefined;
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe("the client's address", () => {
  it("takes the client's address from the last hop of X-Forwarded-For", () => {
    expect(clientAddress(new Headers({ "x-forwarded-for": "1.2.3.4, 10.0.0.7" }))).toBe("10.0.0.7");
    expect(clientAddress(new Headers({ "x-forwarded-for": "10.0.0.7" }))).toBe("10.0.0.7");
    expect(clientAddress(new Headers({ "x-real-ip": "10.0.0.8" }))).toBe("10.0.0.8");
    expect(clientAddress(new Headers())).toBe("unknown");
  });

  it("puts the socket's address in X-Forwarded-For, whatever the client wrote, unless the proxy is trusted", async () => {
    const stop = addressesFromSockets({ trustProxy: false });
    try {
      expect(await forwardedForSeen("203.0.113.9")).toBe("127.0.0.1");
    } finally {
      stop();
    }
    expect(await forwardedForSeen("203.0.113.9")).toBe("203.0.113.9");
    const trusted = addressesFromSockets({ trustProxy: true });
    expect(await forwardedForSeen("203.0.113.9, 198.51.100.1")).toBe("203.0.113.9, 198.51.100.1");
    trusted();
  });

  it("trusts the proxy when SKILLGATE_TRUST_PROXY=1, and by default only on Vercel, whose edge sets X-Forwarded-For", () => {
    expect(readEnv({}).trustProxy).toBe(false);
    expect(readEnv({ SKILLGATE_TRUST_PROXY: "1" }).trustProxy).toBe(true);
    expect(readEnv({ VERCEL: "1" }).trustProxy).toBe(true);
    expect(readEnv({ VERCEL: "1", SKILLGATE_TRUST_PROXY: "0" }).trustProxy).toBe(false);
  });
});
