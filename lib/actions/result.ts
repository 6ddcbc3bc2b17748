/**
 * What every dashboard server action answers: a sentence for the person either way, and what the
 * form needs next. Refusals are values, never thrown to the page.
 */
export type ActionResult =
  | {
      ok: true;
      message: string;
      /** Where to go next (the new skill, the run, the evaluation). */
      href?: string;
      /** The version the change made. */
      version?: number;
      /** A new API key, shown once. */
      key?: string;
      /** Which key `key` is: its panel goes once that key is revoked. */
      keyId?: number;
      /** A new install link's URL (its token is in it), shown once. */
      installUrl?: string;
      /** Which link `installUrl` is: its panel goes once that link is revoked. */
      installLinkId?: number;
      /** A new invitation's one-time link, shown once. */
      inviteUrl?: string;
      /** A new webhook's signing secret, shown once. */
      secret?: string;
      /** Which webhook `secret` signs: its panel goes once that webhook is deleted. */
      webhookId?: number;
    }
  | {
      ok: false;
      message: string;
      /** A stale edit: the version that is there now, shown instead of overwriting it. */
      conflict?: { version: number; text: string };
      /** A re-proposed amendment whose change does not apply to the current text: the model may write it again. */
      mergeConflict?: true;
    };

/** A lead's decision from a page that changes what agents get (pin, unpin, label, rollback): its reason, and the one choice it offers (keep the pin). */
export interface Decision {
  reason: string;
  option: boolean;
}
