import { APICallError, JSONParseError, NoObjectGeneratedError, RetryError, TypeValidationError } from "ai";
import { isDatabaseOutage } from "@/db/outage";
import { isAppError, pageMessage } from "../errors";

/**
 * What an evaluation or an activation run stores and shows when something failed: a stable
 * message a person can act on. The model provider's and the driver's own text goes to the log
 * only — it can hold URLs, account ids, parts of keys and SQL.
 */
export function failureMessage(error: unknown): string {
  const cause = RetryError.isInstance(error) ? error.lastError : error;
  // Our own refusals say what happened in words of our own (the amendment moved on, say).
  if (isAppError(cause)) return pageMessage(cause);
  if (isDatabaseOutage(cause)) return "the database became unavailable while it ran; start it again when it is back";
  if (NoObjectGeneratedError.isInstance(cause) || TypeValidationError.isInstance(cause) || JSONParseError.isInstance(cause)) {
    return "the model's answer did not fit the required schema";
  }
  if (APICallError.isInstance(cause)) {
    const status = cause.statusCode;
    if (status === undefined) return "the model provider could not be reached; check SKILLGATE_MODEL, its base URL and the network";
    if (status === 401 || status === 403)
      return `the model provider refused the credentials (HTTP ${status}); check the provider's API key`;
    if (status === 429) return "the model provider is limiting requests (HTTP 429); try again later";
    if (status >= 500) return `the model provider failed (HTTP ${status}); try again later`;
    return `the model provider refused the request (HTTP ${status}); the server log has the details`;
  }
  return "an internal error stopped it; the server log has the details";
}
