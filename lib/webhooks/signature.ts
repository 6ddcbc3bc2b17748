import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Signing deliveries the way Stripe and GitHub do: HMAC-SHA256 with the webhook's secret over
 * `<t>.<raw body>`, sent as `X-Skillgate-Signature: t=<unix seconds>,v1=<hex>`. The time is inside
 * what is signed, so a receiver that refuses old times refuses a replayed delivery.
 */

export const SIGNATURE_HEADER = "x-skillgate-signature";
export const EVENT_HEADER = "x-skillgate-event";
export const DELIVERY_HEADER = "x-skillgate-delivery";

const SECRET_PREFIX = "whsec_";

/** A new signing secret: 256 random bits. */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString("base64url")}`;
}

/** The first characters of a secret, shown to tell webhooks apart. */
export function secretPrefix(secret: string): string {
  return secret.slice(0, SECRET_PREFIX.length + 4);
}

export function signatureHeader(secret: string, unixSeconds: number, body: string): string {
  const digest = createHmac("sha256", secret).update(`${unixSeconds}.${body}`).digest("hex");
  return `t=${unixSeconds},v1=${digest}`;
}

/**
 * What a receiver does, here for the tests and as the README's example does it: the header's
 * time must be within `toleranceSeconds` of now, and its `v1` the HMAC of `<t>.<body>`.
 */
export function verifySignature(secret: string, header: string, body: string, nowSeconds: number, toleranceSeconds = 300): boolean {
  const parts = Object.fromEntries(header.split(",").map((part) => part.split("=", 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isSafeInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds || !parts.v1) return false;
  const expected = createHmac("sha256", secret).update(`${t}.${body}`).digest();
  const given = Buffer.from(parts.v1, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
