import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fetchApp } from "./app";

/**
 * A real HTTP server in front of the test app's route handlers, for clients that only speak HTTP
 * (the OpenTelemetry exporters): each request is handed to the routes as Next would, its answer
 * checked against the contract and written back.
 */
export async function httpBridge(): Promise<{ url: string; requests: () => number; close(): Promise<void> }> {
  let requests = 0;
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
      const body = chunks.length > 0 && req.method !== "GET" && req.method !== "HEAD" ? Buffer.concat(chunks) : undefined;
      fetchApp(new Request(`http://skillgate.test${req.url}`, { method: req.method, headers, body }))
        .then(async (answer) => {
          res.writeHead(answer.status, Object.fromEntries(answer.headers));
          res.end(Buffer.from(await answer.arrayBuffer()));
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
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
