import type { DatabaseHealth } from "@/db/client";
import type { Stale } from "../auth/key-cache";
import type { AnswerStore, KeptResponse, LastAnswers } from "../answer-store";
import { secondsFromMemory, type Keeping } from "./pipeline";

/** The header that says an answer comes from memory: seconds since the database confirmed it. */
export const STALE_HEADER = "x-skillgate-stale";

/**
 * How REST's answers are kept for an outage (lib/http/pipeline.ts, `answerOrLast`): a 200 as its
 * bytes, and given again with `X-Skillgate-Stale`.
 */
export const RESPONSES: Keeping<Response, KeptResponse> = {
  store: (answers: LastAnswers) => answers.responses,
  keep: keepResponse,
  stale: staleResponse,
};

/**
 * A 200 kept as its bytes, and sent as a copy. An answer whose ETag is the one kept is sent as it
 * is, at once: the hot path (skill_view, the listing) costs a lookup, not a copy of the body.
 */
function keepResponse(
  store: AnswerStore<KeptResponse>,
  key: string,
  response: Response,
  teamChanges: number,
): Response | Promise<Response> {
  if (response.status !== 200) return response;
  const etag = response.headers.get("etag");
  if (etag !== null && store.confirm(key, etag, teamChanges)) return response;
  return keptCopy(store, key, response, teamChanges, etag);
}

async function keptCopy(
  store: AnswerStore<KeptResponse>,
  key: string,
  response: Response,
  teamChanges: number,
  etag: string | null,
): Promise<Response> {
  const body = new Uint8Array(await response.arrayBuffer());
  const kept = { status: response.status, headers: [...response.headers.entries()], body };
  store.keep(key, kept, body.byteLength, teamChanges, etag);
  return new Response(body, { status: kept.status, headers: kept.headers });
}

function staleResponse(kept: KeptResponse, staleSeconds: number): Response {
  const headers = new Headers(kept.headers);
  headers.set(STALE_HEADER, String(staleSeconds));
  return new Response(kept.body, { status: kept.status, headers });
}

/**
 * An answer made while its credential, or everything, was known only from memory, marked so — a
 * refusal too (a file a version does not have, a skill not in the catalog): what it says may have
 * changed since. Failures (5xx) are not from memory.
 */
export function markedIfFromMemory(response: Response, health: DatabaseHealth, auth: Stale<unknown>): Response {
  const staleSeconds = secondsFromMemory(health, auth);
  if (staleSeconds === undefined || response.status >= 500 || response.headers.has(STALE_HEADER)) return response;
  const headers = new Headers(response.headers);
  headers.set(STALE_HEADER, String(staleSeconds));
  return new Response(response.body, { status: response.status, headers });
}
