import type { Env } from "./env";

/**
 * The address links handed to people start with (install links, invitations). A client's
 * `Host` or `X-Forwarded-Host` is not to be believed: anyone can send `Host: evil.test`, and
 * a link built from it would send its reader (or, mailed, its recipient) elsewhere with the
 * token. So: the public URL (`AUTH_URL`) when set; else, when the operator says a proxy sets
 * them (`SKILLGATE_TRUST_PROXY=1`), the forwarded host and scheme; else the request's `Host`
 * only when it names this machine's loopback, and otherwise the address this server serves on.
 */

export interface LinkOrigin {
  /** `<scheme>://<host>[:<port>]`, no trailing slash. */
  origin: string;
  /** Whether it is the configured public URL: only then is a link mailed (docs/teams-and-keys.md#members-and-invitations, issue 25). */
  configured: boolean;
}

export type OriginConfig = Pick<Env, "publicUrl" | "trustProxy" | "port">;

/**
 * `requestUrl` is a route handler's `req.url`, which Next builds from the host and port it serves
 * on, not from `Host`; a server action has none, and gets `http://localhost:<PORT>`.
 */
export function linkOrigin(config: OriginConfig, headers: Headers, requestUrl?: string): LinkOrigin {
  if (config.publicUrl) return { origin: config.publicUrl.origin, configured: true };
  if (config.trustProxy) {
    const host = hostName(first(headers.get("x-forwarded-host"))) ?? hostName(headers.get("host"));
    const scheme = first(headers.get("x-forwarded-proto")) === "https" ? "https" : "http";
    if (host) return { origin: `${scheme}://${host}`, configured: false };
  }
  const host = hostName(headers.get("host"));
  if (host && isLoopbackHost(host)) return { origin: `http://${host}`, configured: false };
  if (requestUrl) return { origin: `http://${new URL(requestUrl).host}`, configured: false };
  return { origin: `http://localhost:${config.port}`, configured: false };
}

/** `localhost`, `127.x.x.x` or `[::1]`, with or without a port. */
export function isLoopbackHost(host: string): boolean {
  return /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d{1,5})?$/i.test(host);
}

/**
 * What to print at start-up about links when no public URL is set. `bindHost` is the address
 * the server listens on; undefined means Next's default, every interface.
 */
export function publicUrlWarnings(config: Pick<Env, "publicUrl" | "trustProxy" | "mail">, bindHost: string | undefined): string[] {
  if (config.publicUrl) return [];
  const lines: string[] = [];
  if (!config.trustProxy && !isLoopbackBind(bindHost)) {
    const where = bindHost === undefined || isEveryInterface(bindHost) ? "every interface" : bindHost;
    lines.push(
      `AUTH_URL is not set and this server listens on ${where}: install and invitation links may not carry the address other machines reach it at; set AUTH_URL to the address people open this server at`,
    );
  }
  if (config.mail) {
    lines.push("AUTH_URL is not set, so invitation links are not mailed; set it to the address people open this server at");
  }
  return lines;
}

function isLoopbackBind(bindHost: string | undefined): boolean {
  if (bindHost === undefined) return false;
  const host = bindHost.startsWith("[") ? bindHost : bindHost.includes(":") ? `[${bindHost}]` : bindHost;
  return isLoopbackHost(host);
}

function isEveryInterface(bindHost: string): boolean {
  return ["0.0.0.0", "::", "[::]"].includes(bindHost);
}

/** A host as a URL may carry it (a name or an address, an optional port), lowercased; anything else is no host. */
function hostName(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  return /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i.test(value) ? value.toLowerCase() : undefined;
}

function first(value: string | null): string | undefined {
  return value?.split(",")[0]?.trim() || undefined;
}
