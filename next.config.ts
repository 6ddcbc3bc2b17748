import type { NextConfig } from "next";
import { PHASE_DEVELOPMENT_SERVER, PHASE_PRODUCTION_SERVER } from "next/constants";
import { guardNodeServer } from "./lib/http/node-server";
import { SECURITY_HEADERS } from "./lib/security/headers";

const config: NextConfig = {
  // PGlite loads its WASM and data files by URL; bundling it breaks `next build`.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "@neondatabase/serverless", "ws", "express", "light-my-request"],
  // Skill folders are read from disk at run time; ship them with the server output.
  outputFileTracingIncludes: { "/**": ["./skills/**/*", "./db/migrations/**/*"] },
  poweredByHeader: false,
  // Next would redirect `/.well-known/skills/` before proxy.ts could send it to the installers'
  // route; proxy.ts redirects pages' trailing slashes itself, and an /api route answers with one.
  skipTrailingSlashRedirect: true,
  // No `rewrites`: Next compiles each one again on every request to a dynamic route. The
  // installers' paths are rewritten by proxy.ts (lib/http/installer-paths.ts).
  // Headers every answer carries (ASVS V14.4); each page's Content-Security-Policy comes from proxy.ts.
  headers: async () => [{ source: "/:path*", headers: SECURITY_HEADERS.map(([key, value]) => ({ key, value })) }],
};

/**
 * The server loads this file in its own process before it answers a request: the one place
 * `next start` runs our code in front of Next's request handling (lib/http/node-server.ts: the
 * methods Next cannot serve, requests in flight on a connection that goes wrong). Building does
 * not serve, so it is left alone.
 */
export default function nextConfig(phase: string): NextConfig {
  if (phase === PHASE_PRODUCTION_SERVER || phase === PHASE_DEVELOPMENT_SERVER) guardNodeServer();
  return config;
}
