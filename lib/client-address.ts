import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";

/**
 * The address a request came from, for what is counted per address: failed sign-ins, OAuth client
 * registrations. It is the last hop of X-Forwarded-For: a proxy appends the address it was reached
 * from, and a client can prepend anything but never append. Without a proxy we trust, the header
 * holds the socket's address, put there by `addressesFromSockets`, whatever the client wrote.
 */
export function clientAddress(headers: Headers): string {
  const forwarded = headers.get("x-forwarded-for");
  const last = forwarded?.split(",").pop()?.trim();
  return last || headers.get("x-real-ip")?.trim() || "unknown";
}

/** Node says each request to any of the process's HTTP servers here, before the server's handler sees it. */
const REQUEST_START = "http.server.request.start";

/**
 * Unless a proxy we trust sets X-Forwarded-For (`SKILLGATE_TRUST_PROXY=1`), each request's header
 * is replaced by the address of the socket it came on, before Next reads it: Next adds the socket's
 * address only when the header is missing, so a client sending its own — a new one each time —
 * would otherwise be counted as anyone it likes. Called once at start-up; returns how to stop.
 */
export function addressesFromSockets(config: { trustProxy: boolean }): () => void {
  if (config.trustProxy) return () => {};
  const fromSocket = (message: unknown) => {
    const { request, socket } = message as { request: IncomingMessage; socket: Socket };
    request.headers["x-forwarded-for"] = socket.remoteAddress ?? "unknown";
    // `delete` turns the headers object into a slow dictionary for everything that reads it after
    // (Next copies it on every request): only when there is something to take away.
    if (request.headers["x-real-ip"] !== undefined) delete request.headers["x-real-ip"];
  };
  subscribe(REQUEST_START, fromSocket);
  return () => unsubscribe(REQUEST_START, fromSocket);
}
