import { request } from "node:http";
import { connect } from "node:net";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { BROWSER_KEY, OTHER_TEAM_KEY } from "./server";

const baseUrl = inject("baseUrl");
const { hostname, port } = new URL(baseUrl);

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request as written: fetch refuses TRACE and would normalize the path. */
function send(method: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method, headers }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** Bytes on a socket, and everything the server sends back until it closes: for what Node's client will not send. */
function sendRaw(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(text));
    let answer = "";
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString()));
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

function envelope(code: string, message: string) {
  return { error: { code, message } };
}

/** A JSON error answer, exactly. */
function expectEnvelope(res: Answer, status: number, code: string, message: string, what: string) {
  expect(res.status, what).toBe(status);
  expect(res.headers["content-type"], what).toBe("application/json");
  expect(JSON.parse(res.body), what).toEqual(envelope(code, message));
}

const PAGE_ALLOW = "GET, HEAD, POST, OPTIONS";

describe("methods the server does not serve", () => {
  const cases = [
    { path: "/signin", allow: PAGE_ALLOW, what: "page" },
    { path: "/t/demo/skills", allow: PAGE_ALLOW, what: "page" },
    { path: "/no-such-page", allow: PAGE_ALLOW, what: "page" },
    { path: "/api/v1/skills", allow: "GET, HEAD, POST, OPTIONS", what: "route" },
    { path: "/api/mcp", allow: "GET, HEAD, POST, DELETE, OPTIONS", what: "route" },
    { path: "/api/health", allow: "GET, HEAD, OPTIONS", what: "route" },
    { path: "/.well-known/skills/index.json", allow: "GET, HEAD, OPTIONS", what: "route" },
  ];

  for (const method of ["TRACE", "PROPFIND", "MKCOL"]) {
    it(`answers ${method} with a 405 in the envelope and the path's Allow, on pages and routes alike`, async () => {
      for (const { path, allow, what } of cases) {
        const res = await send(method, path, { authorization: `Bearer ${BROWSER_KEY}` });
        expectEnvelope(res, 405, "MethodNotAllowed", `${method} is not allowed here; this ${what} answers ${allow}`, `${method} ${path}`);
        expect(res.headers.allow, `${method} ${path}`).toBe(allow);
      }
    });
  }

  it("answers an unknown API path with its 404 whatever the method", async () => {
    const res = await send("TRACE", "/api/v1/nothing-here", { authorization: `Bearer ${BROWSER_KEY}` });
    expectEnvelope(res, 404, "NotFound", "no route TRACE /api/v1/nothing-here; the routes are described at /api/v1/openapi.json", "TRACE");
  });

  it("answers CONNECT and methods Node cannot parse with a raw 405 listing what the server serves", async () => {
    const every = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";
    for (const [method, line] of [
      ["CONNECT", `CONNECT ${hostname}:${port} HTTP/1.1`],
      ["TRACK", "TRACK /api/v1/skills HTTP/1.1"],
      ["BREW", "BREW /signin HTTP/1.1"],
    ]) {
      const answer = await sendRaw(`${line}\r\nHost: ${hostname}:${port}\r\n\r\n`);
      const [head = "", body = ""] = answer.split("\r\n\r\n");
      const lines = head.split("\r\n");
      expect(lines[0], method).toBe("HTTP/1.1 405 Method Not Allowed");
      expect(lines, method).toContain(`Allow: ${every}`);
      expect(lines, method).toContain("Content-Type: application/json");
      expect(JSON.parse(body), method).toEqual(
        envelope(
          "MethodNotAllowed",
          `${method} is not allowed here; this server answers ${every}, and OPTIONS on a path says which of them it does`,
        ),
      );
    }
    // Bytes that are no request line at all keep Node's own 400.
    expect((await sendRaw("\x16\x03\x01garbage\r\n\r\n")).split("\r\n")[0]).toBe("HTTP/1.1 400 Bad Request");
  });

  it("says what a page serves to OPTIONS, and refuses the methods a page does not serve", async () => {
    const options = await send("OPTIONS", "/signin");
    expect(options.status).toBe(204);
    expect(options.headers.allow).toBe(PAGE_ALLOW);
    const put = await send("PUT", "/signin");
    expectEnvelope(put, 405, "MethodNotAllowed", `PUT is not allowed here; this page answers ${PAGE_ALLOW}`, "PUT /signin");
    expect(put.headers.allow).toBe(PAGE_ALLOW);
  });

  it("ignores a client's own refused-method header on a served method", async () => {
    const res = await send("OPTIONS", "/api/health", { "x-skillgate-refused-method": "TRACE" });
    expect(res.status).toBe(204);
    expect(res.headers.allow).toBe("GET, HEAD, OPTIONS");
  });

  it("still redirects a page's trailing slash, and serves an API route with one", async () => {
    const page = await send("GET", "/signin/?callbackUrl=%2Ft");
    expect(page.status).toBe(308);
    expect(page.headers.location).toBe("/signin?callbackUrl=%2Ft");
    const api = await send("GET", "/api/health/");
    expect(api.status).toBe(200);
  });
});

describe("installer paths", () => {
  const INVALID = "this install link is not valid or was revoked; ask a lead for a new one";
  const asOtherTeam = { authorization: `Bearer ${OTHER_TEAM_KEY}`, "content-type": "application/json" };
  let good = "";
  let revoked = "";

  beforeAll(async () => {
    const create = async () => {
      const res = await fetch(`${baseUrl}/api/v1/install-links`, { method: "POST", headers: asOtherTeam });
      expect(res.status).toBe(201);
      return (await res.json()) as { id: number; token: string };
    };
    good = (await create()).token;
    const old = await create();
    revoked = old.token;
    expect((await fetch(`${baseUrl}/api/v1/install-links/${old.id}`, { method: "DELETE", headers: asOtherTeam })).status).toBe(200);
  });

  it("answers an unknown or revoked link with the 401 envelope on every path under it", async () => {
    for (const token of ["sgi_bogus", revoked]) {
      const link = `/i/${token}`;
      for (const path of [
        link,
        `${link}/`,
        `${link}/anything`,
        `${link}/.well-known/skills`,
        `${link}/.well-known/skills/`,
        `${link}/.well-known/skills/index.json`,
        `${link}/.well-known/skills/pdf-forms/SKILL.md`,
      ]) {
        const res = await send("GET", path);
        expectEnvelope(res, 401, "Unauthorized", INVALID, path);
        expect(res.headers["www-authenticate"], path).toBe("Bearer");
      }
    }
  });

  it("tells a valid link's holder where its index is, and serves the index at the bare folder", async () => {
    const link = `/i/${good}`;
    const where = `nothing is served here; this install link serves ${link}/.well-known/skills/index.json and the files it lists`;
    for (const path of [link, `${link}/`, `${link}/anything`, `${link}/index.json`, `${link}/.well-known/other`]) {
      expectEnvelope(await send("GET", path), 404, "NotFound", where, path);
    }
    const index = await send("GET", `${link}/.well-known/skills/index.json`);
    expect(index.status).toBe(200);
    expect(index.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(index.body).skills.length).toBeGreaterThan(0);
    for (const path of [`${link}/.well-known/skills`, `${link}/.well-known/skills/`]) {
      const bare = await send("GET", path);
      expect(bare.status, path).toBe(200);
      expect(bare.body, path).toBe(index.body);
    }
    const trace = await send("TRACE", `${link}/.well-known/skills/index.json`);
    expectEnvelope(trace, 405, "MethodNotAllowed", "TRACE is not allowed here; this route answers GET, HEAD, OPTIONS", "TRACE");
    expect(trace.headers.allow).toBe("GET, HEAD, OPTIONS");
  });

  it("answers a nested file sent raw or with its slashes %2F-encoded alike, as Next routes it, on every file route", async () => {
    // What the integration tests' in-process router only copies: Next's own matching, and the proxy's rewrites.
    const key = { authorization: `Bearer ${BROWSER_KEY}` };
    const made = await fetch(`${baseUrl}/api/v1/install-links`, { method: "POST", headers: key });
    expect(made.status).toBe(201);
    const link = `/i/${((await made.json()) as { token: string }).token}`;
    let answered = 0;
    for (const [skill, file, type] of [
      ["api-error-envelope", "references/status-codes.md", "text/markdown; charset=utf-8"],
      ["db-migration-review", "scripts/lock-check.sh", "text/x-shellscript; charset=utf-8"],
    ] as const) {
      const first = await send("GET", `/api/v1/skills/${skill}/files/${file}`, key);
      expect([first.status, first.headers["content-type"]], file).toEqual([200, type]);
      expect(first.body.length, file).toBeGreaterThan(0);
      for (const form of [file, encodeURIComponent(file)]) {
        for (const [path, headers] of [
          [`/api/v1/skills/${skill}/files/${form}`, key],
          [`/.well-known/skills/${skill}/${form}`, key],
          [`${link}/.well-known/skills/${skill}/${form}`, {}],
        ] as const) {
          const res = await send("GET", path, headers);
          expect([res.status, res.headers["content-type"], res.body], path).toEqual([200, type, first.body]);
          answered++;
        }
      }
    }
    expect(answered).toBe(12);
  });

  it("answers the bare .well-known/skills folder as the index: 401 without a key, the index with one", async () => {
    const keyed = await send("GET", "/.well-known/skills/index.json", { authorization: `Bearer ${OTHER_TEAM_KEY}` });
    expect(keyed.status).toBe(200);
    for (const path of ["/.well-known/skills", "/.well-known/skills/"]) {
      const res = await send("GET", path);
      expectEnvelope(res, 401, "Unauthorized", "send the team's API key as Authorization: Bearer <key>", path);
      const withKey = await send("GET", path, { authorization: `Bearer ${OTHER_TEAM_KEY}` });
      expect(withKey.status, path).toBe(200);
      expect(withKey.body, path).toBe(keyed.body);
    }
  });
});
