import http from "node:http";
import type { Duplex } from "node:stream";
import { answerAfterInFlight, trackRequest, watchConnection } from "./in-flight";
import { markUnservedMethod, refuseConnect, refuseUnparsedMethod } from "./unserved-methods";

const INSTALLED = Symbol.for("skillgate.node-server");

/**
 * Our code in front of Next's request handling, in the server's own process: `next start` offers
 * no hook before it builds its `Request`, so the events of Node's HTTP server are seen here first.
 * It refuses the methods Next cannot serve (unserved-methods.ts) and keeps what goes wrong on a
 * connection from cutting short or throwing from the requests in flight on it (in-flight.ts).
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
    } else if (event === "connection") {
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
