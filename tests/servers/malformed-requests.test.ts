import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../helpers/server";

/**
 * Issue 38, point 5: a request whose body is not what its headers say — body bytes with no
 * Content-Length (they are the next request, and no request), a chunked or sized body cut short —
 * is answered or closed, and never ends as an uncaught exception in the server's log. The server
 * is this file's own, so its whole output can be read.
 */

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ SKILLGATE_DEMO: "0", SKILLGATE_INIT_TEAM: "demo" });
});
afterAll(async () => {
  await server?.stop();
});

/** Bytes on a socket; `hangUp` ends the client's side once they are sent. Everything the server sends until the connection closes. */
function exchange(text: string, { hangUp = false } = {}): Promise<string> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(text);
      if (hangUp) socket.end();
    });
    let answer = "";
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString("latin1")));
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
  });
}

/** The status line of each answer on the connection, in order (one may follow a body with no line break). */
const statusLines = (answer: string) => answer.match(/HTTP\/1\.1 \d{3} [^\r]*/g) ?? [];

const head = (method: string, path: string, headers: string[] = []) =>
  [`${method} ${path} HTTP/1.1`, "Host: 127.0.0.1", ...headers, "Connection: close", "", ""].join("\r\n");
const FORM = "Content-Type: application/x-www-form-urlencoded";
const BODY = "name=review&description=Reviews+code";

describe("a request whose body does not match its headers", () => {
  it("answers a page POST whose body bytes came without Content-Length as it answers the POST, then 400 for the bytes", async () => {
    const cases = [
      ["/", [FORM]],
      ["/signin", [FORM]],
      ["/t/demo", [FORM]],
      ["/t/demo/skills", ["Content-Type: text/plain"]],
      // A server action's POST: the page's answer to an action it does not know.
      ["/signin", [FORM, "Next-Action: 7f00000000000000000000000000000000000000"]],
    ] as const;
    // Every case is sent before anything is asserted: the log is read for all of them below.
    const expected: string[][] = [];
    const seen: string[][] = [];
    for (const [path, headers] of cases) {
      const wellFormed = statusLines(await exchange(head("POST", path, [...headers, "Content-Length: 0"])));
      // Without Content-Length the POST has no body: the bytes after it are read as the next request.
      const answer = await exchange(head("POST", path, [...headers]).replace("Connection: close\r\n", "") + BODY);
      expected.push([path, ...wellFormed, "HTTP/1.1 400 Bad Request"]);
      seen.push([path, ...statusLines(answer)]);
    }
    expect(seen).toEqual(expected);
  });

  it("answers 400 to a chunked or sized body cut short by the client hanging up, and to a chunk that is no chunk", async () => {
    const cases: [string, string][] = [
      ["chunked, cut short", head("POST", "/t/demo", [FORM, "Transfer-Encoding: chunked"]) + "20\r\nname=review"],
      ["sized, cut short", head("POST", "/signin", [FORM, "Content-Length: 100"]) + BODY],
      [
        "a server action, cut short",
        head("POST", "/signin", [FORM, "Next-Action: 7f00000000000000000000000000000000000000", "Content-Length: 100"]) + BODY,
      ],
      ["PUT on a page, chunked, cut short", head("PUT", "/t/demo", ["Transfer-Encoding: chunked"]) + "5\r\nab"],
    ];
    const seen = [];
    for (const [what, text] of cases) seen.push([what, ...statusLines(await exchange(text, { hangUp: true }))]);
    const badChunk = await exchange(head("POST", "/t/demo", [FORM, "Transfer-Encoding: chunked"]) + "zz\r\nname\r\n0\r\n\r\n");
    seen.push(["a chunk that is no chunk", ...statusLines(badChunk)]);
    expect(seen).toEqual([...cases.map(([what]) => what), "a chunk that is no chunk"].map((what) => [what, "HTTP/1.1 400 Bad Request"]));
  });

  it("logs no uncaught exception for any of them, and goes on serving", async () => {
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    await server.stop();
    expect(server.output().match(/uncaughtException/g) ?? []).toEqual([]);
  });
});
