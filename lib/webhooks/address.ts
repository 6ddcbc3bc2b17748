import dns from "node:dns";
import { isIP } from "node:net";

/**
 * Where a webhook may not send: link-local addresses, where cloud metadata services answer
 * (169.254.169.254 and its IPv6 forms). A lead of one team reads the answers of their receivers on
 * the settings page, so a receiver there would read the instance's credentials. Other private
 * addresses stay allowed: a team's own chat server is a fair receiver.
 */
export function isLinkLocal(address: string): boolean {
  const v4 = /^(?:::ffff:)?(\d+)\.(\d+)\.\d+\.\d+$/i.exec(address);
  if (v4) return v4[1] === "169" && v4[2] === "254";
  const lower = address.toLowerCase();
  return /^fe[89ab][0-9a-f]:/.test(lower) || lower === "fd00:ec2::254";
}

/** Why the URL's host may not be sent to, or null: its literal address, or any address its name resolves to, is link-local. */
export async function forbiddenReceiver(url: URL): Promise<string | null> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const addresses = isIP(host) ? [host] : await resolve(host);
  const bad = addresses.find(isLinkLocal);
  return bad ? `${host} is a link-local address (${bad}), where cloud metadata answers: Skillgate does not send there` : null;
}

/** Every address the system's resolver gives the name (the lookup fetch itself uses); none when it gives none. */
function resolve(host: string): Promise<string[]> {
  return new Promise((done) => {
    dns.lookup(host, { all: true }, (error, found) => done(error ? [] : found.map((entry) => entry.address)));
  });
}
