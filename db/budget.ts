import { AsyncLocalStorage } from "node:async_hooks";

/**
 * How long the database may take (docs/outages.md#outages-and-stalls). An agent's request answers
 * within 5 s whatever connection it lands on, so every query it makes — and its wait for a
 * connection — spends what is left of one deadline. Work that legitimately needs longer (a
 * 10,000-skill sync, a judged evaluation, the background jobs) runs as long work: each of its
 * queries may take a little more than the server's own statement timeout (the driver's
 * `longQueryMs`), so the server ends a runaway statement first with its own error. Outside both, a
 * query gets `DEFAULT_QUERY_MS` (a dashboard page, a server action).
 */

/** What an agent's request may spend on the database in all; the rest of the 5 s is for answering. */
export const REQUEST_DEADLINE_MS = 4_000;
/** A query with no deadline around it (a dashboard page, a server action). */
export const DEFAULT_QUERY_MS = 4_000;
/** A deadline for all, or long work. */
type Budget = { deadline: number } | { long: true };
const budgets = new AsyncLocalStorage<Budget>();

/** Runs `work` with `ms` to spend on the database in all, from now, whatever surrounds it. */
export function withDeadline<T>(ms: number, work: () => Promise<T>): Promise<T> {
  return budgets.run({ deadline: Date.now() + ms }, work);
}

/** Runs `work` as long work: no deadline in all, the driver's long allowance for each query. */
export function asLongWork<T>(work: () => Promise<T>): Promise<T> {
  return budgets.run({ long: true }, work);
}

/** Whether the current work is long work: it waits for a pooled connection as long as for a statement. */
export function isLongWork(): boolean {
  const budget = budgets.getStore();
  return budget !== undefined && "long" in budget;
}

/** What the current query may take: what is left of the deadline around it, or its own allowance. */
export function queryBudgetMs(longQueryMs: number): number {
  const budget = budgets.getStore();
  if (budget === undefined) return DEFAULT_QUERY_MS;
  return "deadline" in budget ? budget.deadline - Date.now() : longQueryMs;
}

/**
 * Why work is not even sent to the database, if it is not: the server was found away (nothing
 * waits for it), or the work has no time left (load, not an outage).
 */
export function refusal(away: boolean, budgetMs: number): DatabaseStalled | DatabaseBusy | null {
  if (away) return new DatabaseStalled("is away: the last probe got no answer");
  if (budgetMs <= 0) return new DatabaseBusy("the request had no time left for the database");
  return null;
}

/** The error for a wait on the server that ran out of time: the server is away, or it is busy answering others. */
export function outOfTime(away: boolean, busy: string): DatabaseStalled | DatabaseBusy {
  return away ? new DatabaseStalled("stopped answering (a probe got no answer)") : new DatabaseBusy(busy);
}

/**
 * The error of a query the database did not answer because it is away (a probe confirmed it, or
 * the server refused or cut off a connection): an outage for the caller (503 DatabaseUnavailable).
 */
export class DatabaseStalled extends Error {
  readonly code = "DATABASE_STALLED";
  constructor(why: string) {
    super(`the database ${why}`);
  }
}

/**
 * The error of a request that ran out of its time while the database was answering others: no
 * pooled connection came free, or its statement outran what was left of the deadline. That is load,
 * not an outage (docs/outages.md#load-is-not-an-outage): 503 Overloaded, and the breaker stays closed.
 */
export class DatabaseBusy extends Error {
  readonly code = "DATABASE_BUSY";
}
