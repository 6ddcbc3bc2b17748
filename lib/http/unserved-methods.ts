import http from "node:http";
import type { Duplex } from "node:stream";
import { REFUSED_METHOD_HEADER, SERVED_METHODS } from "./served-methods";

const EVERY_SERVED = [...SERVED_METHODS].join(", ");
const INSTALLED = Symbol.for("skillgate.unserved-methods");

/**
 * Puts the refusal of methods outside SERVED_METHODS in front of Next, in the server's process.
 * Next cannot answer them itself: Node's `Request` refuses TRACE and TRACK (a bare 500 and a stack
 * trace), a route module answers PROPFIND and the like with an empty 400 and a page renders for
 * them, Node drops a CONNECT and answers 400 to a method its parser does not know. So a request
 * with such a method goes on as OPTIONS, marked with its real one, and the proxy or the route it
 * reaches answers 405 with the envelope and the `Allow` of that path. CONNECT and unparsable
 * methods never become a request Next could route: they get the 405 here. The check is one set
 * lookup per request; Next's own server offers no hook before it builds its `Request`.
 */
export function answerUnservedMethods(): void {
  const server = http.Server.prototype as http.Server & { [INSTALLED]?: true };
  if (server[INSTALLED]) return;
  server[INSTALLED] = true;
  const emit = server.emit as (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
  server.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === "request") {
      const req = args[0] as http.IncomingMessage;
      if (!SERVED_METHODS.has(req.method ?? "")) {
        req.headers[REFUSED_METHOD_HEADER] = req.method;
        req.method = "OPTIONS";
      } else if (req.headers[REFUSED_METHOD_HEADER] !== undefined) {
        Reflect.deleteProperty(req.headers, REFUSED_METHOD_HEADER);
      }
    } else if (event === "connection" && this.listenerCount("connect") === 0) {
      // Node drops a CONNECT on a server with no listener for it, before any event we could see.
      this.on("connect", (_req: http.IncomingMessage, socket: Duplex) => refuseOnSocket(socket, "CONNECT"));
    } else if (event === "clientError") {
      const method = unparsedMethod(args[0]);
      if (method) {
        refuseOnSocket(args[1] as Duplex, method);
        return true;
      }
    }
    return emit.call(this, event, ...args);
  } as typeof server.emit;
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
