import { connect, createServer, type Socket } from "node:net";

/**
 * A TCP proxy in front of PostgreSQL that can freeze: while frozen it accepts connections and
 * bytes but forwards nothing, as a server stopped with `kill -STOP` behaves. Thawing forwards
 * what waited, in order. It also counts the statements its clients send, read off the wire: how
 * often a server process goes to the database, seen from outside it.
 */
export interface FreezingProxy {
  url: string;
  /** Statements sent through the proxy so far: simple queries and extended-protocol executions. */
  readonly statements: number;
  freeze(): void;
  thaw(): void;
  close(): Promise<void>;
}

/** PostgreSQL's codes for the requests a client may send before its startup message. */
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;

/**
 * Reads a client's messages as they arrive and calls `onStatement` for each `Q` (a simple query)
 * and `E` (an execution of the extended protocol: one per parameterized query). A connection
 * starts with messages that have no type byte (the startup message, or a request for TLS first).
 */
function statementsOf(onStatement: () => void): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  // Bytes of the message under way still to come: passed over, never kept (a sync's rows run to megabytes).
  let skip = 0;
  let starting = true;
  return (chunk) => {
    const passed = Math.min(skip, chunk.length);
    skip -= passed;
    const rest = chunk.subarray(passed);
    pending = pending.length > 0 ? Buffer.concat([pending, rest]) : rest;
    for (;;) {
      if (pending.length < (starting ? 8 : 5)) return;
      const length = starting ? pending.readInt32BE(0) : pending.readInt32BE(1) + 1;
      if (starting) {
        const code = pending.readInt32BE(4);
        starting = code === SSL_REQUEST || code === GSSENC_REQUEST;
      } else if (pending[0] === 0x51 || pending[0] === 0x45) onStatement();
      if (pending.length < length) {
        skip = length - pending.length;
        pending = Buffer.alloc(0);
        return;
      }
      pending = pending.subarray(length);
    }
  };
}

export async function startFreezingProxy(targetUrl: string): Promise<FreezingProxy> {
  const target = new URL(targetUrl);
  let frozen = false;
  let statements = 0;
  const held: (() => void)[] = [];
  const sockets = new Set<Socket>();
  const forward = (from: Socket, to: Socket, read?: (chunk: Buffer) => void) =>
    from.on("data", (chunk: Buffer) => {
      read?.(chunk);
      if (frozen) held.push(() => to.write(chunk));
      else to.write(chunk);
    });
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => sockets.delete(socket));
    }
    forward(
      client,
      upstream,
      statementsOf(() => statements++),
    );
    forward(upstream, client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(targetUrl);
  url.hostname = "127.0.0.1";
  url.port = String((server.address() as { port: number }).port);
  return {
    url: url.toString(),
    get statements() {
      return statements;
    },
    freeze: () => void (frozen = true),
    thaw: () => {
      frozen = false;
      for (const send of held.splice(0)) send();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
