import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { installerRoute } from "@/lib/http/installer-paths";
import { oauthMetadataRoute } from "@/lib/http/oauth-paths";
import { isDecodablePath, undecodablePathResponse } from "@/lib/http/path-encoding";

/**
 * Calls the app's real route handlers the way Next's file-system router would: static segments
 * win over `[param]`, which wins over `[...rest]`. Lets integration tests run every route
 * in-process against a test database.
 */

type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
interface RouteFile {
  segments: string[];
  file: string;
}

const API_ROOT = path.resolve("app/api");

function findRouteFiles(dir: string, segments: string[] = []): RouteFile[] {
  const found: RouteFile[] = [];
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) found.push(...findRouteFiles(full, [...segments, entry]));
    else if (entry === "route.ts") found.push({ segments, file: full });
  }
  return found;
}

const routes = findRouteFiles(API_ROOT);

function match(route: RouteFile, parts: string[]): Record<string, string | string[]> | null {
  const params: Record<string, string | string[]> = {};
  for (const [i, segment] of route.segments.entries()) {
    const optional = /^\[\[\.\.\.(.+)\]\]$/.exec(segment);
    if (optional) {
      if (i < parts.length) params[optional[1]!] = parts.slice(i).map(decodeURIComponent);
      return params;
    }
    const catchAll = /^\[\.\.\.(.+)\]$/.exec(segment);
    if (catchAll) {
      if (i >= parts.length) return null;
      params[catchAll[1]!] = parts.slice(i).map(decodeURIComponent);
      return params;
    }
    const part = parts[i];
    if (part === undefined) return null;
    const param = /^\[(.+)\]$/.exec(segment);
    if (param) params[param[1]!] = decodeURIComponent(part);
    else if (segment !== part) return null;
  }
  return route.segments.length === parts.length ? params : null;
}

function rank(route: RouteFile): number[] {
  return route.segments.map((s) => (s.startsWith("[[...") ? 3 : s.startsWith("[...") ? 2 : s.startsWith("[") ? 1 : 0));
}

export async function dispatch(req: Request): Promise<Response> {
  const { pathname: raw } = new URL(req.url);
  // What proxy.ts answers before any route: Next cannot decode such a path.
  if (!isDecodablePath(raw)) return undecodablePathResponse(raw);
  // What proxy.ts does next: the installers' public paths, with a key or through an install link,
  // and OAuth's metadata addresses go to their API routes.
  const pathname = installerRoute(raw) ?? oauthMetadataRoute(raw) ?? raw;
  const parts = pathname
    .replace(/^\/api\/?/, "")
    .split("/")
    .filter(Boolean);
  const candidates = routes
    .map((route) => ({ route, params: match(route, parts) }))
    .filter((c) => c.params !== null)
    .sort((a, b) => compareRanks(rank(a.route), rank(b.route)));
  const hit = candidates[0];
  if (!hit) return new Response("not found", { status: 404 });
  const routeModule = (await import(hit.route.file)) as Record<string, Handler | undefined>;
  const handler = routeModule[req.method];
  if (!handler) return new Response(null, { status: 405 });
  // As Next does: a route without dynamic segments gets no params at all.
  const params = Object.keys(hit.params!).length > 0 ? hit.params! : undefined;
  return handler(req, { params: Promise.resolve(params as Record<string, string | string[]>) });
}

function compareRanks(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}
