import { createServer, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
// What Next's server does to a page request's body before its proxy runs (the cause of issue 38, point 5).
import { getCloneableBody } from "next/dist/server/body-streams";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardNodeServer } from "@/lib/http/node-server";

let server: Server;
let port = 0;
/** Errors that reached the process with no one to hear them, while this file ran. */
const uncaught: unknown[] = [];
const hear = (error: unknown) => uncaught.push(error);
/** Settled when the request whose body Next rebuilt has had its answer closed under it. */
let rebuiltClosed: Promise<void> = Promise.resolve();

beforeAll(async () => {
  guardNodeServer();
  process.on("uncaughtException", hear);
  server = createServer((req, res) => {
    if (req.url !== "/rebuilt") {
      res.end(`answered ${req.method} ${req.url}`);
      return;
    }
    rebuiltClosed = new Promise((resolve) => res.once("close", () => resolve()));
    const body = getCloneableBody(req, undefined);
    body.cloneBodyStream().resume();
    // Next's proxy has read the body; the page is still being made when the client hangs up.
    void body.finalize().then(() => res.writeHead(200).write("body read\n"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  process.off("uncaughtException", hear);
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Bytes on a socket; everything the server sends until the connection closes. `hangUpOnData`: close it at the first byte back. */
function exchange(text: string, { hangUpOnData = false } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(text));
    let answer = "";
    socket.on("data", (chunk: Buffer) => {
      answer += chunk.toString();
      if (hangUpOnData) socket.destroy();
    });
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
  });
}

describe("guardNodeServer: requests in flight", () => {
  it("answers the requests before bytes that are no request, then 400 and closes", async () => {
    const answer = await exchange("POST /form HTTP/1.1\r\nHost: t\r\n\r\nname=x&y=z");
    // The POST's own answer (not a 405 for the bytes, read as a request line of its method), then Node's 400.
    expect(answer.replace(/^Date: .*\r\n/m, "Date: <now>\r\n")).toBe(
      [
        "HTTP/1.1 200 OK",
        "Date: <now>",
        "Connection: keep-alive",
        "Keep-Alive: timeout=5",
        "Content-Length: 19",
        "",
        "answered POST /formHTTP/1.1 400 Bad Request",
        "Connection: close",
        "",
        "",
      ].join("\r\n"),
    );
  });

  it("drops the abort of a request whose body Next rebuilt when its client hangs up, rather than throw it", async () => {
    const answer = await exchange("POST /rebuilt HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\nabc", { hangUpOnData: true });
    expect(answer.split("\r\n")[0]).toBe("HTTP/1.1 200 OK");
    await rebuiltClosed;
    // Node reports the abort on the tick after the connection closes.
    await new Promise((resolve) => setImmediate(resolve));
    expect(uncaught).toEqual([]);
  });
});
