import http from "node:http";
import type { Duplex } from "node:stream";
import { answerInFront } from "./front-routes";
import { answerAfterInFlight, trackRequest, watchConnection } from "./in-flight";
import { markUnservedMethod, refuseConnect, refuseUnparsedMethod } from "./unserved-methods";

const INSTALLED = Symbol.for("skillgate.node-server");

/**
 * How many connections the kernel may hold for the server before it accepts them (Linux caps it at
 * `net.core.somaxconn`, 4,096 by default since 5.4). An installer opens a connection for every file
 * at once, 2,000 and more: behind Node's default of 511 most of them overflowed, waited on TCP's
 * retransmissions, and on a busy machine some were reset, which the installer drops without a word
 * (docs/decisions/listen-backlog.md).
 */
export const LISTEN_BACKLOG = 4_096;
const widened = new WeakSet<http.Server>();

/**
 * Our code in front of Next's request handling, in the server's own process: `next start` offers
 * no hook before it builds its `Request`, so the events of Node's HTTP server are seen here first.
 * It refuses the methods Next cannot serve (unserved-methods.ts), keeps what goes wrong on a
 * connection from cutting short or throwing from the requests in flight on it (in-flight.ts),
 * answers the agents' warm listing and skill_view itself (front-routes.ts), and widens the server's
 * listen backlog (`LISTEN_BACKLOG`).
 * Installed from next.config.ts when the server starts; a second call changes nothing.
 */
export function guardNodeServer(): void {
  const server = http.Server.prototype as http.Server & { [INSTALLED]?: true };
  if (server[INSTALLED]) return;
  server[INSTALLED] = true;
  const emit = server.emit as (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
  server.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === "request") {
      const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
      markUnservedMethod(req);
      trackRequest(req, res);
      if (answerInFront(req, res)) return true;
    } else if (event === "connection") {
      widenBacklog(this);
      refuseConnect(this);
      watchConnection(args[0] as Duplex);
    } else if (event === "clientError") {
      const [error, socket] = args as [unknown, Duplex];
      // Requests in flight come first: the bytes Node quotes with the error may begin with theirs.
      if (answerAfterInFlight(error, socket) || refuseUnparsedMethod(error, socket)) return true;
    }
    return emit.call(this, event, ...args);
  } as typeof server.emit;
}

/**
 * `next start` listens, with Node's default backlog, before it loads next.config.ts, which installs
 * the guard: so the backlog is widened at the server's first connection (a health check, as a rule,
 * long before a burst). listen(2) again on a listening socket sets its new length; Node reaches the
 * socket only through its handle.
 */
function widenBacklog(server: http.Server): void {
  if (widened.has(server)) return;
  widened.add(server);
  const handle = (server as unknown as { _handle?: { listen?: (backlog: number) => number } })._handle;
  handle?.listen?.(LISTEN_BACKLOG);
}
