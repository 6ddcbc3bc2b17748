import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request a receiver got, as it arrived: its headers and raw body. */
export interface Received {
  at: number;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How the receiver answers a request: a status and body, or never (it hangs until closed). */
export type Answer = { status: number; body?: string } | "hang";

export interface WebhookReceiver {
  url: string;
  readonly received: Received[];
  /** When each answer was sent (ms since the epoch), in order. */
  readonly answeredAt: number[];
  /** Decides the answer to the nth request (from 1); 200 "ok" unless set. */
  answer: (n: number, request: Received) => Answer;
  close(): Promise<void>;
}

/** A real HTTP receiver on a free port of this machine, as a team's own service would be. */
export async function startReceiver(): Promise<WebhookReceiver> {
  const received: Received[] = [];
  const answeredAt: number[] = [];
  const hanging = new Set<ServerResponse>();
  const receiver: WebhookReceiver = {
    url: "",
    received,
    answeredAt,
    answer: () => ({ status: 200, body: "ok" }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = { at: Date.now(), path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      received.push(request);
      const answer = receiver.answer(received.length, request);
      if (answer === "hang") {
        hanging.add(res);
        return;
      }
      res.writeHead(answer.status, { "content-type": "text/plain" });
      res.end(answer.body ?? "");
      answeredAt.push(Date.now());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
