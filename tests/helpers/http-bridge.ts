import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fetchApp } from "./app";

/** One request the bridge received, as the client sent it, and the answer it got. */
export interface Exchange {
  method: string;
  path: string;
  /** The request's headers, names in lower case. */
  headers: Record<string, string>;
  body: Buffer;
  status: number;
  answerHeaders: Record<string, string>;
  answer: Buffer;
}

export interface HttpBridge {
  url: string;
  /** Requests received so far, answered or not. */
  requests(): number;
  /** The requests answered so far, in the order they were answered. */
  exchanges(): readonly Exchange[];
  close(): Promise<void>;
}

/**
 * A real HTTP server in front of the test app's route handlers, for clients that only speak HTTP
 * (the OpenTelemetry exporters): each request is handed to the routes as Next would, its answer
 * checked against the contract and written back. It keeps what was sent and answered, so a test
 * can see what a client it does not control put on the wire, and send those bytes again.
 */
export async function httpBridge(): Promise<HttpBridge> {
  let requests = 0;
  const exchanges: Exchange[] = [];
  const server: Server = createServer((req, res) => {
    requests++;
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === "string") headers.set(name, value);
        else if (Array.isArray(value)) for (const one of value) headers.append(name, one);
      }
      const sent = Buffer.concat(chunks);
      const body = chunks.length > 0 && req.method !== "GET" && req.method !== "HEAD" ? sent : undefined;
      const method = req.method ?? "GET";
      fetchApp(new Request(`http://skillgate.test${req.url}`, { method, headers, body }))
        .then(async (answer) => {
          const answered = Buffer.from(await answer.arrayBuffer());
          const answerHeaders = Object.fromEntries(answer.headers);
          exchanges.push({
            method,
            path: req.url ?? "/",
            headers: Object.fromEntries(headers),
            body: sent,
            status: answer.status,
            answerHeaders,
            answer: answered,
          });
          res.writeHead(answer.status, answerHeaders);
          res.end(answered);
        })
        .catch((error: Error) => {
          res.writeHead(599);
          res.end(error.message);
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    exchanges: () => exchanges,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
