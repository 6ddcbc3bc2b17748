"use server";

import { redirect } from "next/navigation";
import { getApp } from "@/lib/current-app";
import { signedInUserId } from "@/lib/pages/member";
import { consent, refuse } from "@/lib/oauth/authorizations";
import { isAccessLevel } from "@/lib/oauth/access";
import { isAppError, pageMessage } from "@/lib/errors";
import type { ActionResult } from "@/lib/actions/result";

/**
 * The member's answer on the consent page: back to the client with a code (for the team and
 * level chosen) or with `access_denied`. A refusal to answer (signed out, a team not theirs, a
 * level above their role, a request already answered) stays on the page and says why.
 */
export async function answerConsent(request: string, _previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  const app = await getApp();
  const userId = await signedInUserId(app);
  if (userId === null) return { ok: false, message: "your session ended: sign in again, then answer" };
  let redirectTo: string;
  try {
    if (form.get("answer") === "refuse") {
      redirectTo = (await refuse(app.db, request)).redirectTo;
    } else {
      const team = String(form.get("team") ?? "");
      const level = String(form.get("level") ?? "");
      if (!isAccessLevel(level)) return { ok: false, message: "choose what the client may do: read, write or admin" };
      redirectTo = (await consent(app.db, request, { userId }, { teamSlug: team, level })).redirectTo;
    }
  } catch (error) {
    if (isAppError(error)) return { ok: false, message: pageMessage(error) };
    throw error;
  }
  redirect(redirectTo);
}
