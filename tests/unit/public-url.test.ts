import { describe, expect, it } from "vitest";
import { readEnv } from "@/lib/env";
import { isLoopbackHost, linkOrigin, publicUrlWarnings } from "@/lib/public-url";

const hostile = { host: "evil.test", "x-forwarded-host": "evil.test", "x-forwarded-proto": "https" };
const origin = (env: Record<string, string>, headers: Record<string, string>, requestUrl?: string) =>
  linkOrigin(readEnv(env), new Headers(headers), requestUrl);

/** Issue 25: links carry the configured public URL; a client's Host or X-Forwarded-Host only when the operator says so. */
describe("the origin of a link", () => {
  it("is AUTH_URL's whatever the request's headers say", () => {
    expect(origin({ AUTH_URL: "https://skills.example.com/" }, hostile, "http://localhost:3000/api/v1/install-links")).toEqual({
      origin: "https://skills.example.com",
      configured: true,
    });
    expect(origin({ AUTH_URL: "https://skills.example.com", SKILLGATE_TRUST_PROXY: "1" }, hostile)).toEqual({
      origin: "https://skills.example.com",
      configured: true,
    });
  });

  it("without AUTH_URL, takes Host only when it is loopback, and never X-Forwarded-*", () => {
    expect(origin({}, hostile, "http://localhost:3000/api/v1/invitations")).toEqual({ origin: "http://localhost:3000", configured: false });
    expect(origin({ PORT: "3123" }, hostile)).toEqual({ origin: "http://localhost:3123", configured: false });
    expect(origin({}, { ...hostile, host: "127.0.0.1:3001" })).toEqual({ origin: "http://127.0.0.1:3001", configured: false });
    expect(origin({}, { ...hostile, host: "LocalHost:3002" })).toEqual({ origin: "http://localhost:3002", configured: false });
    expect(origin({}, { ...hostile, host: "[::1]:3003" })).toEqual({ origin: "http://[::1]:3003", configured: false });
    expect(origin({}, { host: "192.168.1.20:3000" })).toEqual({ origin: "http://localhost:3000", configured: false });
  });

  it("with SKILLGATE_TRUST_PROXY=1 and no AUTH_URL, takes the forwarded host and scheme, else Host, when well formed", () => {
    const trusted = { SKILLGATE_TRUST_PROXY: "1" };
    expect(
      origin(trusted, { host: "10.0.0.5:3000", "x-forwarded-host": "skills.corp.example, proxy.internal", "x-forwarded-proto": "https" }),
    ).toEqual({
      origin: "https://skills.corp.example",
      configured: false,
    });
    expect(origin(trusted, { host: "skills.corp.example:8080" })).toEqual({ origin: "http://skills.corp.example:8080", configured: false });
    expect(origin(trusted, { host: "skills.corp.example", "x-forwarded-proto": "javascript" })).toEqual({
      origin: "http://skills.corp.example",
      configured: false,
    });
    // A value that is no host (a path, credentials) is not one: the next rule applies.
    expect(origin(trusted, { "x-forwarded-host": "evil.test/i/x", host: "localhost:3000" })).toEqual({
      origin: "http://localhost:3000",
      configured: false,
    });
    expect(origin(trusted, { host: "localhost@evil.test" })).toEqual({ origin: "http://localhost:3000", configured: false });
  });

  it("knows loopback hosts from names that only start like one", () => {
    expect(["localhost", "localhost:3000", "127.0.0.1", "127.1.2.3:80", "[::1]", "[::1]:3000"].map(isLoopbackHost)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(
      ["localhost.evil.test", "127.0.0.1.evil.test", "evil.test", "[::2]:3000", "0.0.0.0:3000", "localhost:3000/x"].map(isLoopbackHost),
    ).toEqual([false, false, false, false, false, false]);
  });
});

describe("the start-up warnings about links", () => {
  const EVERY_INTERFACE =
    "AUTH_URL is not set and this server listens on every interface: install and invitation links may not carry the address other machines reach it at; set AUTH_URL to the address people open this server at";
  const NOT_MAILED = "AUTH_URL is not set, so invitation links are not mailed; set it to the address people open this server at";
  const SMTP = { SKILLGATE_SMTP_URL: "smtp://mail.example.com:587" };

  it("say nothing when AUTH_URL is set", () => {
    expect(publicUrlWarnings(readEnv({ AUTH_URL: "https://skills.example.com", ...SMTP }), undefined)).toEqual([]);
    expect(publicUrlWarnings(readEnv({ AUTH_URL: "https://skills.example.com", ...SMTP }), "0.0.0.0")).toEqual([]);
  });

  it("say nothing on a server that listens on loopback only, without mail", () => {
    for (const bindHost of ["localhost", "127.0.0.1", "::1", "[::1]"]) expect(publicUrlWarnings(readEnv({}), bindHost)).toEqual([]);
  });

  it("warn a server that listens beyond loopback, naming where", () => {
    expect(publicUrlWarnings(readEnv({}), undefined)).toEqual([EVERY_INTERFACE]);
    expect(publicUrlWarnings(readEnv({}), "0.0.0.0")).toEqual([EVERY_INTERFACE]);
    expect(publicUrlWarnings(readEnv({}), "::")).toEqual([EVERY_INTERFACE]);
    expect(publicUrlWarnings(readEnv({}), "192.168.1.20")).toEqual([
      "AUTH_URL is not set and this server listens on 192.168.1.20: install and invitation links may not carry the address other machines reach it at; set AUTH_URL to the address people open this server at",
    ]);
  });

  it("say that invitations are not mailed when mail is configured, wherever the server listens", () => {
    expect(publicUrlWarnings(readEnv(SMTP), "127.0.0.1")).toEqual([NOT_MAILED]);
    expect(publicUrlWarnings(readEnv(SMTP), undefined)).toEqual([EVERY_INTERFACE, NOT_MAILED]);
  });

  it("behind a trusted proxy, only that invitations are not mailed", () => {
    expect(publicUrlWarnings(readEnv({ SKILLGATE_TRUST_PROXY: "1" }), "0.0.0.0")).toEqual([]);
    expect(publicUrlWarnings(readEnv({ SKILLGATE_TRUST_PROXY: "1", ...SMTP }), "0.0.0.0")).toEqual([NOT_MAILED]);
  });

  it("refuse a trust setting that is not 0 or 1", () => {
    expect(() => readEnv({ SKILLGATE_TRUST_PROXY: "yes" })).toThrow(
      'configuration: SKILLGATE_TRUST_PROXY: Invalid option: expected one of "0"|"1"',
    );
  });
});
