import { z } from "zod";
import { isIP } from "node:net";
import { isLinkLocal } from "./address";
import { WEBHOOK_EVENTS } from "./events";

/** What a webhook's URL and events may be: the API, the settings page and the tests check with these. */

export const MAX_WEBHOOK_URL = 2048;

/** Why a receiver's URL cannot be used, or null when it can. */
export function webhookUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "is not a URL: give the receiver's whole address, e.g. https://example.com/hooks/skillgate";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return `must start with https:// or http://, not ${url.protocol}//`;
  if (url.username || url.password) {
    return "may not carry a user name or password: Skillgate signs every delivery (X-Skillgate-Signature), so the receiver can check it instead";
  }
  if (url.hash) return "may not have a #fragment: a receiver never sees it";
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) && isLinkLocal(host)) return `may not be a link-local address (${host}): cloud metadata answers there`;
  return null;
}

export const webhookUrl = z
  .string()
  .max(MAX_WEBHOOK_URL, `must be at most ${MAX_WEBHOOK_URL} characters`)
  .superRefine((value, ctx) => {
    const problem = webhookUrlProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .describe("where deliveries are POSTed: http(s), no credentials in it")
  .meta({ example: "https://example.com/hooks/skillgate" });

const EVENT_LIST = WEBHOOK_EVENTS.join(", ");

export const webhookEventName = z.enum(WEBHOOK_EVENTS, {
  error: (issue) => `${JSON.stringify(issue.input)} is not an event Skillgate sends; choose from ${EVENT_LIST}`,
});

export const webhookEvents = z
  .array(webhookEventName)
  .min(1, `choose at least one event: ${EVENT_LIST}`)
  .max(WEBHOOK_EVENTS.length * 4)
  .describe("the events to send; each is sent once whatever the list repeats");
