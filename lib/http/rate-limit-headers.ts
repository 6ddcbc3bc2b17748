import type { RateLimitState } from "../security/rate-limit";

/**
 * The X-RateLimit-* headers of every answer to a counted request (issue 28): a key's or an install
 * link's, on REST, MCP, the installers' routes and OTLP, refusals included. The state is kept by
 * request where it is taken and put on the answer where it leaves (lib/http/pipeline.ts), so every
 * way a request is authenticated and counted gets them without passing the state along, and an
 * answer kept for an outage never replays an old count (docs/decisions/rate-limit-headers.md).
 */

/** Each request's state, as its limit was taken; gone with the request. */
const counted = new WeakMap<Request, RateLimitState>();

export function recordRateLimit(req: Request, state: RateLimitState): void {
  counted.set(req, state);
}

/** Reset is a delay in seconds (the IETF drafts' RateLimit-Reset), not GitHub's epoch time: no clock to agree on. */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    "x-ratelimit-limit": String(state.limit),
    "x-ratelimit-remaining": String(state.remaining),
    "x-ratelimit-reset": String(state.resetSeconds),
  };
}

/** The answer with the headers of the request's count, if it was counted (a refused key or link never is). */
export function withRateLimitHeaders(req: Request, response: Response): Response {
  const state = counted.get(req);
  if (!state) return response;
  const headers = rateLimitHeaders(state);
  try {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  } catch {
    // A response whose headers are immutable (a fetched or redirect one): its copy takes them.
    const copy = new Headers(response.headers);
    for (const [name, value] of Object.entries(headers)) copy.set(name, value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers: copy });
  }
}
