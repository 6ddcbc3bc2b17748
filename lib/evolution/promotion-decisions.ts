/**
 * Promotion decisions by week (docs/learned-skills.md): every history event that decides whether a version goes
 * live, or stays live, read as one kind of decision. The database counts events by week and by what
 * tells the decisions apart; this module names the decisions and lays them out week by week.
 */

/** Every kind of decision, in the order the chart stacks them: what went live, then what did not, then what was undone. */
export const PROMOTION_DECISIONS = [
  "auto-promoted",
  "approved",
  "overridden",
  "draft-promoted",
  "rejected",
  "not-promoted",
  "rolled-back",
] as const;
export type PromotionDecision = (typeof PROMOTION_DECISIONS)[number];

/** The history event kinds a decision is read from. */
export const DECISION_EVENT_KINDS = ["promoted", "approved", "overridden", "rejected", "evaluated", "rolled-back"] as const;

/** A count of events of one week that share what tells their decision apart. */
export interface DecisionEventCount {
  /** The Monday the week starts on, `YYYY-MM-DD` (UTC). */
  week: string;
  kind: string;
  /** A `promoted` event written by an evaluation that promoted on its own (`detail.auto`). */
  auto: boolean;
  /** An `evaluated` event's verdict. */
  verdict: string | null;
  count: number;
}

export type DecisionWeek = { week: string } & Record<PromotionDecision, number>;

/**
 * The decision an event records, or null for one that decides nothing:
 * - `promoted` by an evaluation on its own → auto-promoted; by a person on a draft → draft-promoted;
 * - `approved`, `overridden`, `rejected`, `rolled-back` → themselves (a lead's decisions, and a rollback);
 * - `evaluated` with any verdict but improved → not-promoted: the amendment did not go live, the version in use stays.
 *   An improved verdict decides nothing yet: what follows it (auto-promoted, approved, rejected) is counted.
 */
export function decisionOf(event: Pick<DecisionEventCount, "kind" | "auto" | "verdict">): PromotionDecision | null {
  switch (event.kind) {
    case "promoted":
      return event.auto ? "auto-promoted" : "draft-promoted";
    case "approved":
    case "overridden":
    case "rejected":
    case "rolled-back":
      return event.kind;
    case "evaluated":
      return event.verdict === "improved" ? null : "not-promoted";
    default:
      return null;
  }
}

export function noDecisions(week: string): DecisionWeek {
  return { week, ...(Object.fromEntries(PROMOTION_DECISIONS.map((decision) => [decision, 0])) as Record<PromotionDecision, number>) };
}

/** The weeks with any decision, oldest first, each with its count of every kind of decision. */
export function decisionsByWeek(counts: DecisionEventCount[]): DecisionWeek[] {
  const weeks = new Map<string, DecisionWeek>();
  for (const count of counts) {
    const decision = decisionOf(count);
    if (decision === null) continue;
    const week = weeks.get(count.week) ?? noDecisions(count.week);
    week[decision] += count.count;
    weeks.set(count.week, week);
  }
  return [...weeks.values()].sort((a, b) => a.week.localeCompare(b.week));
}
