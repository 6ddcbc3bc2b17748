import { env } from "../env";

/**
 * The origin clients reach this deployment at, for URLs handed out (install links): the public
 * URL when one is set (`AUTH_URL`), else what the proxy forwarded, else the request's own.
 */
export function publicOrigin(headers: Headers, requestUrl?: string): string {
  const configured = env().publicUrl;
  if (configured) return configured.origin;
  const host = first(headers.get("x-forwarded-host")) ?? headers.get("host");
  if (host) return `${first(headers.get("x-forwarded-proto")) ?? "http"}://${host}`;
  return requestUrl ? new URL(requestUrl).origin : "http://localhost:3000";
}

function first(value: string | null): string | undefined {
  return value?.split(",")[0]?.trim() || undefined;
}
