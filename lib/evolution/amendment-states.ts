import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { amendments, type AmendmentState } from "@/db/schema";
import { specError, type AppError } from "../errors";
import type { TeamId } from "../teams/teams";

export { AMENDMENT_STATES, type AmendmentState } from "@/db/schema";

/**
 * How an amendment moves (docs/evaluation-and-activation.md#amendment-states; the table in docs/decisions/amendment-states.md). Each move starts from the states
 * listed here and is one conditional update of the amendment's row: of any number of concurrent
 * moves from one state exactly one gets past it, and the others are told the state it is in now.
 */
export const MOVES = {
  /** An editor, a write key or an agent starts an evaluation. */
  evaluate: { from: ["pending", "evaluated"], to: "evaluating" },
  /** The evaluation's worker stores its verdict: improved + auto-promotion → promoted, improved otherwise → awaiting-approval, else evaluated. */
  finish: { from: ["evaluating"], to: ["promoted", "awaiting-approval", "evaluated"] },
  /** The evaluation failed: the amendment is back where it was before. */
  fail: { from: ["evaluating"], to: ["pending", "evaluated"] },
  /** A lead puts an amendment judged improved live. */
  approve: { from: ["awaiting-approval"], to: "promoted" },
  /** A lead refuses it, with a reason. */
  reject: { from: ["awaiting-approval"], to: "rejected" },
  /** A lead puts live what was not judged improved, with a reason: a manual override. */
  override: { from: ["pending", "evaluated", "rejected"], to: "promoted" },
  /**
   * An editor, a write key or an agent re-proposes one the skill has moved past (docs/evaluation-and-activation.md#out-of-date-amendments): a new
   * pending amendment takes its place. Not while it is being judged; a rejected one too, so a lead
   * who changes their mind after the skill moved on has a way to put it live.
   */
  repropose: { from: ["pending", "evaluated", "awaiting-approval", "rejected"], to: "superseded" },
} as const satisfies Record<string, { from: readonly AmendmentState[]; to: AmendmentState | readonly AmendmentState[] }>;

export type Move = keyof typeof MOVES;

/** What each move is called in a refusal. */
const MOVE_WORDS: Record<Move, string> = {
  evaluate: "evaluating it",
  finish: "finishing its evaluation",
  fail: "ending its evaluation",
  approve: "approving it",
  reject: "rejecting it",
  override: "promoting it",
  repropose: "re-proposing it",
};

/** `409 AmendmentStateChanged`: the move found the amendment in another state than it starts from. */
export function amendmentStateChanged(id: number, now: AmendmentState, move: Move): AppError {
  const states: readonly string[] = MOVES[move].from;
  const from = states.length === 1 ? states[0] : `${states.slice(0, -1).join(", ")} or ${states[states.length - 1]}`;
  return specError("AmendmentStateChanged", `amendment #${id} is ${now}; ${MOVE_WORDS[move]} needs it ${from}`);
}

/**
 * Moves amendment `id` of the team from one of `move`'s states to `to`, with `set` written in the
 * same update, inside the caller's transaction; throws AmendmentStateChanged naming the state it
 * is in when another move got there first. `from` narrows the move to the state the caller saw (a
 * lead who decided on a rejected amendment overrides a rejected one, not whatever it became).
 */
export async function moveAmendment(
  tx: Db,
  teamId: TeamId,
  id: number,
  move: Move,
  to: AmendmentState,
  set: Partial<typeof amendments.$inferInsert> = {},
  from: readonly AmendmentState[] = MOVES[move].from,
): Promise<void> {
  const allowed = MOVES[move].to;
  if (typeof allowed === "string" ? allowed !== to : !(allowed as readonly AmendmentState[]).includes(to)) {
    throw new Error(`the move ${move} cannot lead to ${to}`);
  }
  const [moved] = await tx
    .update(amendments)
    .set({ ...set, status: to })
    .where(and(eq(amendments.teamId, teamId), eq(amendments.id, id), inArray(amendments.status, [...from])))
    .returning({ id: amendments.id });
  if (moved) return;
  const [now] = await tx
    .select({ status: amendments.status })
    .from(amendments)
    .where(and(eq(amendments.teamId, teamId), eq(amendments.id, id)));
  if (!now) throw specError("AmendmentNotFound", `No amendment #${id} in this team.`);
  throw amendmentStateChanged(id, now.status, move);
}
