import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";

/**
 * The requests on each connection whose answers are not finished, so that what goes wrong on the
 * connection around them (bytes that are no request, the client hanging up) neither cuts their
 * answers short nor throws from them.
 */
interface Connection {
  requests: Set<IncomingMessage>;
  /** What to send once the last of them is answered: the 400 for bytes that followed them. */
  afterThem?: () => void;
}

const connections = new WeakMap<Duplex, Connection>();

/** Node's own answer to bytes that are no request, with the connection closed after it. */
const BAD_REQUEST = "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n";

/**
 * Called for a new connection before Node's own listeners. When it closes with requests still in
 * flight, Node aborts each (an `aborted` error on the request). A request Next's proxy has read
 * the body of is no longer Node's forgiving kind: Next copies a stream of its own over it, with
 * its listeners and its `_destroy`, so the error finds no listener and becomes an uncaught
 * exception. The client is gone and there is no one to answer: the error is heard and dropped.
 */
export function watchConnection(socket: Duplex): void {
  const connection: Connection = { requests: new Set() };
  connections.set(socket, connection);
  socket.once("close", () => {
    for (const req of connection.requests) req.on("error", clientWentAway);
  });
}

function clientWentAway(): void {}

/** Called for each request as Node hands it over: it is in flight until its answer closes. */
export function trackRequest(req: IncomingMessage, res: ServerResponse): void {
  const connection = connections.get(req.socket);
  if (!connection) return;
  connection.requests.add(req);
  res.once("close", () => {
    connection.requests.delete(req);
    if (connection.requests.size === 0) connection.afterThem?.();
  });
}

/**
 * A parse error that follows complete requests on the connection — body bytes sent without
 * Content-Length are read as the next request, and are none — is answered after them: each gets
 * its own answer, then a 400 closes the connection. Node would write its 400 at once, in front of
 * their answers, and cut them off. Any other client error (a body cut short, a timeout) is left
 * to Node: its request cannot be answered. Whether it was taken care of here.
 */
export function answerAfterInFlight(error: unknown, socket: Duplex): boolean {
  const connection = connections.get(socket);
  if (!connection || connection.requests.size === 0) return false;
  if (connection.afterThem) return true;
  const code = (error as { code?: unknown }).code;
  const parseError = typeof code === "string" && code.startsWith("HPE_");
  if (!parseError || ![...connection.requests].every((req) => req.complete)) return false;
  connection.afterThem = () => {
    if (socket.writable) socket.end(BAD_REQUEST);
    else socket.destroy();
  };
  return true;
}
