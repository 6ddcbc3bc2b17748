import { NextResponse, type NextRequest } from "next/server";
import { gateDashboardPage } from "@/lib/auth/page-gate";
import { isHttps } from "@/lib/auth/session-cookie";
import { env } from "@/lib/env";
import { installerRoute } from "@/lib/http/installer-paths";
import { oauthMetadataRoute } from "@/lib/http/oauth-paths";
import { methodNotAllowed, refusedMethod } from "@/lib/http/methods";
import { isDecodablePath, undecodablePathResponse } from "@/lib/http/path-encoding";
import { unavailablePage, UNAVAILABLE_RETRY_SECONDS } from "@/lib/http/unavailable-page";
import { contentSecurityPolicy, newNonce, STRICT_TRANSPORT_SECURITY } from "@/lib/security/headers";

/** What a page serves: GET and HEAD, and POST for the server actions its forms send. */
const PAGE_METHODS = new Set(["GET", "HEAD", "POST"]);
const PAGE_ALLOW = "GET, HEAD, POST, OPTIONS";

/**
 * In front of every page (and of any /api path with a percent sign): refuses paths Next cannot
 * decode, sends installers' paths and OAuth's metadata addresses to the API routes that answer them, refuses the methods a page
 * does not serve, gives each page its Content-Security-Policy nonce, and lets only live sessions
 * into the dashboard, answering 503 when the database that holds them is down. Agent routes never
 * pass through here: their hot path stays as it was.
 */
export async function proxy(req: NextRequest): Promise<Response> {
  const path = req.nextUrl.pathname;
  if (!isDecodablePath(path)) return undecodablePathResponse(path);
  if (path.startsWith("/api/")) return NextResponse.next();
  const rewritten = installerRoute(path) ?? oauthMetadataRoute(path);
  if (rewritten) {
    // A plain URL: NextURL would put the request's trailing slash back on the path.
    const url = new URL(req.url);
    url.pathname = rewritten;
    return NextResponse.rewrite(url);
  }
  const refused = refusedMethod(req) ?? (PAGE_METHODS.has(req.method) || req.method === "OPTIONS" ? null : req.method);
  if (refused) return methodNotAllowed(refused, PAGE_ALLOW, "page");
  if (req.method === "OPTIONS") return new Response(null, { status: 204, headers: { allow: PAGE_ALLOW } });
  // next.config.ts turns Next's own redirect off so that `/.well-known/skills/` reaches the
  // installers' route above; pages keep it.
  if (path.length > 1 && path.endsWith("/")) {
    const url = new URL(req.url);
    url.pathname = path.replace(/\/+$/, "") || "/";
    return NextResponse.redirect(url, 308);
  }

  const https = isHttps(req.headers);
  const nonce = newNonce();
  const csp = contentSecurityPolicy(nonce, {
    https,
    githubSignIn: env().github !== null,
    development: process.env.NODE_ENV === "development",
  });
  const gate = path === "/t" || path.startsWith("/t/") ? await gateDashboardPage(req.headers) : "pass";
  let res: NextResponse;
  if (gate === "sign-in") {
    const signIn = req.nextUrl.clone();
    signIn.pathname = "/signin";
    signIn.search = `?callbackUrl=${encodeURIComponent(path + req.nextUrl.search)}`;
    res = NextResponse.redirect(signIn);
  } else if (gate === "unavailable" || gate === "busy") {
    res = new NextResponse(unavailablePage(nonce, path, gate), {
      status: 503,
      headers: {
        "content-type": "text/html; charset=utf-8",
        "retry-after": String(UNAVAILABLE_RETRY_SECONDS[gate]),
        "cache-control": "no-store",
      },
    });
  } else {
    // Next reads the nonce for its own scripts from the request's policy header.
    const headers = new Headers(req.headers);
    headers.set("content-security-policy", csp);
    res = NextResponse.next({ request: { headers } });
  }
  res.headers.set("content-security-policy", csp);
  if (https) res.headers.set("strict-transport-security", STRICT_TRANSPORT_SECURITY);
  return res;
}

export const config = {
  matcher: [
    // Pages: everything but the API, Next's static files and the icons.
    "/((?!api/|_next/static|_next/image|favicon\\.svg|icon\\.svg).*)",
    // API paths with a percent-encoding, which Next may fail to decode.
    "/api/:path(.*%.*)",
  ],
};
