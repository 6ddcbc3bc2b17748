import { createServer, request, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REFUSED_METHOD_HEADER } from "@/lib/http/served-methods";
import { guardNodeServer } from "@/lib/http/node-server";

/** What the handler behind the guard saw: the method and the marker header. */
let server: Server;
let port = 0;

beforeAll(async () => {
  guardNodeServer();
  guardNodeServer(); // a second call (the config loaded again) changes nothing
  server = createServer((req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ method: req.method, refused: req.headers[REFUSED_METHOD_HEADER] ?? null }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function send(method: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: "/x", method, headers }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

function sendRaw(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(text));
    let answer = "";
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString()));
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

describe("guardNodeServer: methods", () => {
  it("passes a method Next does not serve on as OPTIONS, marked with the real one", async () => {
    for (const method of ["TRACE", "PROPFIND", "MKCOL", "QUERY", "M-SEARCH"]) {
      expect(JSON.parse((await send(method)).body), method).toEqual({ method: "OPTIONS", refused: method });
    }
  });

  it("leaves the served methods alone and drops a marker a client sent", async () => {
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
      const res = await send(method, { [REFUSED_METHOD_HEADER]: "TRACE" });
      expect(JSON.parse(res.body), method).toEqual({ method, refused: null });
    }
  });

  it("answers CONNECT and a method the parser does not know with a raw 405, and anything else as Node does", async () => {
    const every = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";
    for (const [method, line] of [
      ["CONNECT", "CONNECT example.test:443 HTTP/1.1"],
      ["TRACK", "TRACK /x HTTP/1.1"],
    ]) {
      const answer = await sendRaw(`${line}\r\nHost: example.test\r\n\r\n`);
      const body = JSON.stringify({
        error: {
          code: "MethodNotAllowed",
          message: `${method} is not allowed here; this server answers ${every}, and OPTIONS on a path says which of them it does`,
        },
      });
      expect(answer).toBe(
        [
          "HTTP/1.1 405 Method Not Allowed",
          `Allow: ${every}`,
          "Content-Type: application/json",
          `Content-Length: ${body.length}`,
          "X-Content-Type-Options: nosniff",
          "Connection: close",
          "",
          body,
        ].join("\r\n"),
      );
    }
    expect((await sendRaw("\x16\x03\x01 not a request\r\n\r\n")).split("\r\n")[0]).toBe("HTTP/1.1 400 Bad Request");
  });
});
