import { revalidatePath } from "next/cache";
import type { z } from "zod";
import { requireMember, type Member } from "../pages/member";
import { roleAtLeast, type Role } from "../auth/scopes";
import { isAppError, pageMessage } from "../errors";
import { checkStorableText, parseWith } from "../validation";
import type { Actor } from "../learned/actor";
import type { ActionResult } from "./result";

/** What a person below the role reads. */
const REFUSALS: Record<Role, string> = {
  viewer: "sign in as a member of this team",
  editor: "viewers cannot change this team's skills or run its evals; ask a lead to make you an editor",
  lead: "only a lead can do this; ask a lead of the team",
};

export interface ActionRequest<S extends z.ZodType> {
  /** The team's slug, from the page. */
  team: string;
  /** The page to come back to after signing in. */
  page: string;
  role: Role;
  /** The operation's contract schema (lib/contracts): the same checks as the REST route. */
  schema: S;
  input: unknown;
}

/**
 * Every dashboard write goes through this: the signed-in member, their role, the input checked
 * with the contract's schema, then the work; an AppError becomes `{ok: false, message}` and a
 * success refreshes the team's pages (a refusal does not: an editor must keep what it shows).
 */
export async function memberAction<S extends z.ZodType>(
  request: ActionRequest<S>,
  work: (member: Member, input: z.infer<S>, actor: Actor) => Promise<ActionResult>,
): Promise<ActionResult> {
  const member = await requireMember(request.team, request.page);
  if (!roleAtLeast(member.role, request.role)) return { ok: false, message: REFUSALS[request.role] };
  try {
    checkStorableText(request.input);
    const input = parseWith(request.schema, request.input, "InvalidField");
    const actor: Actor = { kind: "person", userId: member.user.id, email: member.user.email, role: member.role };
    const result = await work(member, input, actor);
    if (result.ok) revalidatePath(`/t/${request.team}`, "layout");
    return result;
  } catch (error) {
    if (isAppError(error)) return { ok: false, message: pageMessage(error) };
    throw error;
  }
}
