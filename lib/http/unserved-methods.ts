import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { REFUSED_METHOD_HEADER, SERVED_METHODS } from "./served-methods";

const EVERY_SERVED = [...SERVED_METHODS].join(", ");

/**
 * The refusal of methods outside SERVED_METHODS, in front of Next (installed by node-server.ts).
 * Next cannot answer them itself: Node's `Request` refuses TRACE and TRACK (a bare 500 and a stack
 * trace), a route module answers PROPFIND and the like with an empty 400 and a page renders for
 * them, Node drops a CONNECT and answers 400 to a method its parser does not know. So a request
 * with such a method goes on as OPTIONS, marked with its real one, and the proxy or the route it
 * reaches answers 405 with the envelope and the `Allow` of that path. CONNECT and unparsable
 * methods never become a request Next could route: they get the 405 here. The check is one set
 * lookup per request.
 */
export function markUnservedMethod(req: IncomingMessage): void {
  if (!SERVED_METHODS.has(req.method ?? "")) {
    req.headers[REFUSED_METHOD_HEADER] = req.method;
    req.method = "OPTIONS";
  } else if (req.headers[REFUSED_METHOD_HEADER] !== undefined) {
    Reflect.deleteProperty(req.headers, REFUSED_METHOD_HEADER);
  }
}

/** Node drops a CONNECT on a server with no listener for it, before any event we could see. */
export function refuseConnect(server: Server): void {
  if (server.listenerCount("connect") === 0) {
    server.on("connect", (_req: IncomingMessage, socket: Duplex) => refuseOnSocket(socket, "CONNECT"));
  }
}

/** A request line Node's parser refused for its method alone gets the 405; whether it did. */
export function refuseUnparsedMethod(error: unknown, socket: Duplex): boolean {
  const method = unparsedMethod(error);
  if (method) refuseOnSocket(socket, method);
  return method !== null;
}

/** The method of a request line Node's parser refused for its method alone; null for any other client error. */
function unparsedMethod(error: unknown): string | null {
  const { code, rawPacket } = error as { code?: string; rawPacket?: Buffer };
  if (code !== "HPE_INVALID_METHOD" || !Buffer.isBuffer(rawPacket)) return null;
  const line = /^([!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}) \S+ HTTP\/1\.[01]\r?\n/.exec(rawPacket.toString("latin1"));
  return line?.[1] ?? null;
}

/** A raw 405: the request names no path Next could route, so `Allow` lists what the server serves at all. */
function refuseOnSocket(socket: Duplex, method: string): void {
  const message = `${method} is not allowed here; this server answers ${EVERY_SERVED}, and OPTIONS on a path says which of them it does`;
  const body = JSON.stringify({ error: { code: "MethodNotAllowed", message } });
  const head = [
    "HTTP/1.1 405 Method Not Allowed",
    `Allow: ${EVERY_SERVED}`,
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "X-Content-Type-Options: nosniff",
    "Connection: close",
  ];
  if (socket.writable) socket.end(`${head.join("\r\n")}\r\n\r\n${body}`);
  else socket.destroy();
}
