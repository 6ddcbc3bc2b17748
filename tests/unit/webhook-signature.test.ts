import { createHmac, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { forbiddenReceiver, isLinkLocal } from "@/lib/webhooks/address";
import { eventSentence, slackMessage } from "@/lib/webhooks/messages";
import { newWebhookSecret, signatureHeader, verifySignature } from "@/lib/webhooks/signature";

/** The README's five lines that check a delivery, as a receiver would paste them: run here against Skillgate's own signature. */
function readmeCheck(): (
  req: { headers: Record<string, string> },
  res: { writeHead(status: number): { end(): string } },
  rawBody: string,
) => unknown {
  const readme = readFileSync("README.md", "utf8");
  const block = /\*\*Verify the signature\*\*[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error("the README's webhook example is missing");
  const lines = block.trimEnd().split("\n");
  expect(lines).toHaveLength(5);
  expect(lines[0]).toBe('import { createHmac, timingSafeEqual } from "node:crypto";');
  const body = lines.slice(1).join("\n");
  const run = new Function("createHmac", "timingSafeEqual", "req", "res", "rawBody", body);
  return (req, res, rawBody) => run(createHmac, timingSafeEqual, req, res, rawBody);
}

describe("a delivery's signature (issue 39)", () => {
  afterEach(() => vi.unstubAllEnvs());
  const secret = newWebhookSecret();
  const body = JSON.stringify({ id: "e1", event: "sync.finished", data: { added: 1 } });
  const now = Math.floor(Date.now() / 1000);

  it("is HMAC-SHA256 over <t>.<raw body> in the header's t=…,v1=… form", () => {
    const header = signatureHeader(secret, now, body);
    expect(header).toBe(`t=${now},v1=${createHmac("sha256", secret).update(`${now}.${body}`).digest("hex")}`);
    expect(verifySignature(secret, header, body, now)).toBe(true);
    expect(verifySignature(secret, header, `${body} `, now)).toBe(false);
    expect(verifySignature(newWebhookSecret(), header, body, now)).toBe(false);
    expect(verifySignature(secret, header, body, now + 301)).toBe(false);
    expect(verifySignature(secret, "t=abc,v1=00", body, now)).toBe(false);
    expect(verifySignature(secret, "", body, now)).toBe(false);
  });

  it("is checked by the README's example: a delivery passes, a changed body, another secret or an old time get 401", () => {
    vi.stubEnv("SKILLGATE_WEBHOOK_SECRET", secret);
    const check = readmeCheck();
    const answered: number[] = [];
    const res = { writeHead: (status: number) => (answered.push(status), { end: () => "ended" }) };
    const request = (header: string) => ({ headers: { "x-skillgate-signature": header } });
    expect(check(request(signatureHeader(secret, now, body)), res, body)).toBeUndefined();
    expect(answered).toEqual([]);
    expect(check(request(signatureHeader(secret, now, body)), res, body.replace("1", "2"))).toBe("ended");
    expect(check(request(signatureHeader(newWebhookSecret(), now, body)), res, body)).toBe("ended");
    expect(check(request(signatureHeader(secret, now - 600, body)), res, body)).toBe("ended");
    expect(check(request("t=1,v1=short"), res, body)).toBe("ended");
    expect(answered).toEqual([401, 401, 401, 401]);
  });

  it("reads as a sentence in Slack, with the markup characters escaped and a link", () => {
    const event = {
      event: "skill.rolled_back" as const,
      data: { skill: "a-b", version: 3, revertOf: 1, from: 2, served: { version: 3, why: "latest" } },
    };
    expect(eventSentence(event)).toBe("a-b was rolled back from v2: v3 has the content of v1.");
    expect(slackMessage("r&d", event, "https://x.example/t/r%26d/skills/a-b")).toEqual({
      text: "[r&amp;d] a-b was rolled back from v2: v3 has the content of v1. <https://x.example/t/r%26d/skills/a-b|Open in Skillgate>",
    });
  });
});

describe("where a webhook may send (issue 39)", () => {
  it("never to a link-local address, where cloud metadata answers; private and loopback addresses are a team's own", async () => {
    expect(
      ["169.254.169.254", "169.254.0.1", "::ffff:169.254.169.254", "fe80::1", "FEBF::2", "fd00:ec2::254"].filter(isLinkLocal),
    ).toHaveLength(6);
    expect(["127.0.0.1", "10.0.0.5", "192.168.1.1", "::1", "fd12::1", "8.8.8.8", "170.254.1.1"].filter(isLinkLocal)).toEqual([]);
    expect(await forbiddenReceiver(new URL("http://169.254.169.254/latest/meta-data/"))).toBe(
      "169.254.169.254 is a link-local address (169.254.169.254), where cloud metadata answers: Skillgate does not send there",
    );
    expect(await forbiddenReceiver(new URL("http://[fe80::1]:8080/"))).toBe(
      "fe80::1 is a link-local address (fe80::1), where cloud metadata answers: Skillgate does not send there",
    );
    expect(await forbiddenReceiver(new URL("http://localhost:9/hook"))).toBeNull();
    expect(await forbiddenReceiver(new URL("https://no-such-host.invalid/hook"))).toBeNull();
  });
});
