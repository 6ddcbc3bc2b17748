import { and, eq } from "drizzle-orm";
import type { ReviewReport } from "@/db/schema";
import { learnedSkillVersions } from "@/db/schema";
import { skillNotFound, specError } from "../errors";
import type { TeamId } from "../teams/teams";
import { requireWriteActive, type Actor } from "./actor";
import { recordEvent } from "./events";
import { findLiveLearned, nameHolder, notLearned, versionConflict } from "./store";
import type { Deps } from "./write";

export type Tier = "reviewed" | "verified";
const REPORT_FIELDS = ["reviewer", "attempts", "findings", "verdict"] as const;

/** A report counts only when every field says something: who reviewed, what they tried, what they found, and the verdict. */
function completeReport(report: unknown): ReviewReport | null {
  if (!report || typeof report !== "object") return null;
  const fields = report as Record<string, unknown>;
  const said = (value: unknown) =>
    (typeof value === "string" && value.trim() !== "") ||
    (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === "string" && item.trim() !== ""));
  if (!REPORT_FIELDS.every((field) => said(fields[field]))) return null;
  const text = (value: unknown) => (Array.isArray(value) ? value.join("\n") : String(value));
  return {
    reviewer: text(fields.reviewer),
    attempts: text(fields.attempts),
    findings: text(fields.findings),
    verdict: text(fields.verdict),
  };
}

/** Sets the tier of the skill's current version (docs/learned-skills.md#forks-and-verification); `verified` needs a hostile review report. */
export async function verifyLearned(
  deps: Deps,
  teamId: TeamId,
  actor: Actor,
  name: string,
  request: { tier: Tier; report?: unknown; expectedVersion?: number },
) {
  const { tier, report, expectedVersion } = request;
  requireWriteActive(actor, "setting a verification tier");
  return deps.db.transaction(async (tx) => {
    const holder = await nameHolder(tx, deps.catalogs.statics, teamId, name);
    if (holder) throw notLearned(name, holder);
    const row = await findLiveLearned(tx, teamId, name, { lock: true });
    if (!row) throw skillNotFound(name);
    if (expectedVersion !== undefined && expectedVersion !== row.currentVersion)
      throw versionConflict(name, row.currentVersion, expectedVersion);
    const review = completeReport(report);
    if (tier === "verified" && !review) {
      throw specError(
        "ReviewRequired",
        `marking "${name}" v${row.currentVersion} verified needs a hostile review report: reviewer, attempts, findings and verdict, each filled in`,
      );
    }
    await tx
      .update(learnedSkillVersions)
      .set({ tier, review })
      .where(and(eq(learnedSkillVersions.skillId, row.id), eq(learnedSkillVersions.version, row.currentVersion)));
    await recordEvent(tx, teamId, name, "verified", actor, row.currentVersion, { tier, reviewer: review?.reviewer });
    return { name, version: row.currentVersion, tier };
  });
}
