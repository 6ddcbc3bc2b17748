import { getToken } from "next-auth/jwt";
import { env } from "../env";

/** What our session cookie carries: the person and the dashboard session (a row in dashboard_sessions). */
export interface SessionToken {
  userId: number;
  sessionId: string;
}

/**
 * Whether the request reached us over HTTPS: the public URL says so, or the proxy in front of us
 * does (`X-Forwarded-Proto`, as Auth.js reads it). Decides the cookie's name and `Secure`, and HSTS.
 * Read whatever `SKILLGATE_TRUST_PROXY` says: Auth.js names the cookie it sets from the same
 * header, and reading another name here would sign everyone out behind an HTTPS proxy. A client
 * that sends the header itself gains nothing: a Secure cookie over HTTP, HSTS its browser ignores.
 */
export function isHttps(headers: Headers): boolean {
  const publicUrl = env().publicUrl;
  if (publicUrl) return publicUrl.protocol === "https:";
  return headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https";
}

/**
 * The session cookie, decrypted, without setting any cookie (Auth.js's own `auth()` may refresh it).
 * Null when there is none, it does not decrypt, or it names no dashboard session.
 */
export async function readSessionToken(headers: Headers): Promise<SessionToken | null> {
  const secret = env().authSecret;
  if (!secret) return null;
  const token = await getToken({ req: { headers }, secret, secureCookie: isHttps(headers) });
  const userId = Number(token?.uid);
  const sessionId = token?.sid;
  if (!Number.isInteger(userId) || userId <= 0 || typeof sessionId !== "string" || sessionId === "") return null;
  return { userId, sessionId };
}
