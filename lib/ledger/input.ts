import { z } from "zod";
import { refuseWith } from "../validation";
import { LEDGER_ACTIONS, VERDICTS } from "./records";

/** What the ledger accepts (docs/ledger.md#actions-and-gates); the contract (lib/contracts/ledger.ts) documents it as it is. */

export const LEDGER_SLUG_PATTERN = "^[a-z0-9-]{1,80}$";

export const ledgerSlugParam = z
  .string()
  .superRefine(
    refuseWith("InvalidSlug", (slug: string) =>
      /^[a-z0-9-]{1,80}$/.test(slug)
        ? null
        : `Error [InvalidSlug]: "${slug.slice(0, 100)}" is not a plan slug: use 1–80 lowercase letters, digits and hyphens`,
    ),
  )
  .meta({ pattern: LEDGER_SLUG_PATTERN, description: "the plan's slug; its ledger is sci.<slug>/ledger", example: "cache-fix" })
  .brand<"LedgerSlug">();

/**
 * What an agent or person sends. The action is checked here; which fields it needs, and whether
 * they are non-empty, the ledger checks in the order of docs/ledger.md#actions-and-gates (a missing field before a bad verdict).
 */
export const ledgerBody = z.strictObject({
  action: z
    .string()
    .superRefine(
      refuseWith("UnknownAction", (action: string) =>
        (LEDGER_ACTIONS as readonly string[]).includes(action)
          ? null
          : `Error [UnknownAction]: "${action.slice(0, 100)}" is not an action; use one of ${LEDGER_ACTIONS.join(", ")}`,
      ),
    )
    .meta({ enum: [...LEDGER_ACTIONS] }),
  text: z
    .string()
    .optional()
    .describe("record-hypothesis, record-prediction, record-observation, record-conclusion: the claim or what was seen"),
  falsifiedBy: z.string().optional().describe("record-prediction: the exact command whose output would refute it"),
  id: z.string().optional().describe("record-prediction: the hypothesis (H<n>); record-verdict, record-skip: the prediction (P<n>)"),
  verdict: z
    .string()
    .optional()
    .meta({ enum: [...VERDICTS], description: "record-verdict: confirmed, refuted or inconclusive" }),
  evidence: z.string().optional().describe("record-verdict: the output that decides it (required unless inconclusive)"),
  reason: z.string().optional().describe("record-skip: why the prediction will not be tested"),
  skill: z.string().optional().describe("the skill this plan exercises (set once, on the plan)"),
});
export type LedgerInput = z.infer<typeof ledgerBody>;
