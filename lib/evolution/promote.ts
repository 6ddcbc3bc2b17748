import { and, desc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { evaluations } from "@/db/schema";
import { specError } from "../errors";
import { requireLead, requireWriteActive, type Actor } from "../learned/actor";
import { nameHolder, notLearned } from "../learned/store";
import type { CatalogCache } from "../skills/catalog-cache";
import type { EvaluationTeam } from "./evaluate";
import { getAmendment } from "./amendments";
import { applyAmendment } from "./evaluate";

/**
 * Promotes an amendment by hand (§8.4). One the judge found `improved` (when auto-promotion is off)
 * needs an editor; any other is a lead's manual override and needs a written reason.
 */
export async function promoteAmendment(
  deps: { db: Db; catalogs: CatalogCache },
  team: EvaluationTeam,
  actor: Actor,
  amendmentId: number,
  reason?: string,
): Promise<{ name: string; version: number; evaluationId: number | null; override: boolean }> {
  const amendment = await getAmendment(deps.db, team.id, amendmentId);
  if (amendment.status === "promoted") throw specError("AlreadyPromoted", `amendment #${amendmentId} is already promoted`);
  const [latest] = await deps.db
    .select()
    .from(evaluations)
    .where(and(eq(evaluations.amendmentId, amendmentId), eq(evaluations.status, "finished")))
    .orderBy(desc(evaluations.id))
    .limit(1);
  const override = latest?.verdict !== "improved";
  const overrideReason = reason?.trim() ?? "";
  if (override) {
    requireLead(actor, "promoting an amendment its evaluation did not find improved");
    if (overrideReason === "") {
      throw specError(
        "ReasonRequired",
        `promoting amendment #${amendmentId} against its verdict (${latest?.verdict ?? "not evaluated"}) needs a written reason`,
      );
    }
  } else {
    requireWriteActive(actor, "promoting an amendment");
  }
  const holder = await nameHolder(deps.db, deps.catalogs.statics, team.id, amendment.skillName);
  if (holder) throw notLearned(amendment.skillName, holder);
  const evaluationId = latest?.id ?? null;
  const { version } = await applyAmendment(deps, team, actor, amendment, evaluationId, override ? "overridden" : "promoted", {
    ...(override && { overrideReason, verdict: latest?.verdict ?? null }),
  });
  if (evaluationId !== null) {
    await deps.db
      .update(evaluations)
      .set({ promotedVersion: version, promotionNote: override ? `manual override: ${overrideReason}` : null })
      .where(eq(evaluations.id, evaluationId));
  }
  return { name: amendment.skillName, version, evaluationId, override };
}
