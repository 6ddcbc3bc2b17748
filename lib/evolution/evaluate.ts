import { and, asc, eq, sql } from "drizzle-orm";
import pLimit from "p-limit";
import type { Db } from "@/db/client";
import { singleRow } from "@/db/rows";
import { evaluationCases, evaluations, observations, teams } from "@/db/schema";
import { isAppError, pageMessage, specError, unlessCode } from "../errors";
import { authorOf, SYSTEM, type Actor, type Author } from "../learned/actor";
import { leaseEnd, leaseToken } from "../jobs/leases";
import { recoverExpired, workLeased, type LeasedJob } from "../jobs/worker";
import { getTeam, type TeamId } from "../teams/teams";
import { recordEvent } from "../learned/events";
import { unifiedPatch } from "../learned/history";
import type { CatalogCache, CatalogKey } from "../skills/catalog-cache";
import { amendmentTexts, getAmendment, type AmendmentRow } from "./amendments";
import { amendmentStateChanged, moveAmendment, MOVES } from "./amendment-states";
import { applyAmendmentIn } from "./promote";
import { amendmentOutdated } from "./outdated";
import { findLiveLearned } from "../learned/store";
import { recordListingSnapshot } from "../listing/snapshots";
import type { StaticCatalog } from "../skills/catalog";
import { failureMessage } from "./failure-message";
import { JUDGE_PROMPT_VERSION, judgeCase } from "./judge";
import { requireModel, type ModelWorkDeps } from "./model";
import { selectTestCases } from "./observations";
import { caseChange, verdictOf, type JudgedCase, type Verdict } from "./verdict";
import { enqueueEvents } from "../webhooks/outbox";
import { evaluationEvents } from "./webhook-events";

/** What an evaluation needs of its team. */
export type EvaluationTeam = CatalogKey & { slug: string; autoPromote: boolean };

/**
 * Evaluation (docs/evaluation-and-activation.md#evaluation): the amendment against the original on the skill's own failure-weighted
 * history, one judge call per case with bounded concurrency. Progress is written case by case,
 * so a page can follow it and a reload finds it where it was.
 */

export interface Started {
  evaluationId: number;
  /** Settles when every case is judged and the verdict (and any promotion) is stored, or the work moved to another instance. */
  done: Promise<void>;
}

export async function startEvaluation(deps: ModelWorkDeps, team: EvaluationTeam, actor: Actor, amendmentId: number): Promise<Started> {
  const judge = requireModel(deps.model);
  const amendment = await getAmendment(deps.db, team.id, amendmentId);
  if (!(MOVES.evaluate.from as readonly string[]).includes(amendment.status))
    throw amendmentStateChanged(amendmentId, amendment.status, "evaluate");
  // The amended text must still make a skill before anything is judged.
  await amendmentTexts(deps.db, deps.catalogs, team, amendment);
  const cases = await selectTestCases(deps.db, team.id, amendment.skillName);
  const startedBy = authorOf(actor);
  const token = leaseToken(deps.work);
  const evaluationId = await deps.db.transaction(async (tx) => {
    // Of concurrent evaluations of one amendment exactly one starts; the others are told it is evaluating.
    await moveAmendment(tx, team.id, amendmentId, "evaluate", "evaluating");
    const rows = await tx
      .insert(evaluations)
      .values({
        teamId: team.id,
        amendmentId,
        skillName: amendment.skillName,
        status: "running",
        casesTotal: cases.length,
        modelId: judge.id,
        promptVersion: JUDGE_PROMPT_VERSION,
        startedByUserId: startedBy.userId,
        startedByKeyId: startedBy.keyId,
        startedSession: startedBy.sessionId,
        leaseOwner: token,
        leaseUntil: leaseEnd(deps.work),
      })
      .returning({ id: evaluations.id });
    const { id } = singleRow(rows);
    if (cases.length > 0) {
      await tx
        .insert(evaluationCases)
        .values(cases.map((c, position) => ({ evaluationId: id, position, observationId: c.id, outcome: c.outcome, task: c.task })));
    }
    return id;
  });
  return { evaluationId, done: workOnEvaluation(deps, evaluationId, token) };
}

/**
 * An evaluation as leased work (lib/jobs/worker.ts): judges the cases that are still pending, then
 * stores the verdict and any promotion. When its instance dies, another takes it over and judges
 * only what was left.
 */
function evaluationJob(deps: ModelWorkDeps): LeasedJob {
  return {
    kind: "evaluation",
    table: evaluations,
    work: (evaluationId, lease, owned) => judgeAndFinish(deps, evaluationId, lease.token, owned),
    fail: (evaluationId, token, error) => failEvaluation(deps.db, evaluationId, token, failureMessage(error)),
  };
}

/** Works on an evaluation until its verdict is stored or the work moved to another instance. Never rejects. */
export function workOnEvaluation(deps: ModelWorkDeps, evaluationId: number, token: string): Promise<void> {
  return workLeased(deps.db, deps.work, evaluationJob(deps), evaluationId, token);
}

/** Takes over evaluations whose lease ran out (their instance died or stalled), a few each tick. */
export function recoverEvaluations(deps: ModelWorkDeps): Promise<number[]> {
  return recoverExpired(deps.db, deps.work, evaluationJob(deps));
}

async function judgeAndFinish(deps: ModelWorkDeps, evaluationId: number, token: string, owned: () => Promise<boolean>): Promise<void> {
  const [row] = await deps.db.select().from(evaluations).where(eq(evaluations.id, evaluationId));
  if (!row || row.status !== "running") return;
  const judge = requireModel(deps.model);
  const team = await getTeam(deps.db, row.teamId as TeamId);
  const amendment = await getAmendment(deps.db, team.id, row.amendmentId);
  const texts = await amendmentTexts(deps.db, deps.catalogs, team, amendment);
  const pending = await deps.db
    .select({ position: evaluationCases.position, run: observations })
    .from(evaluationCases)
    .leftJoin(observations, eq(observations.id, evaluationCases.observationId))
    .where(and(eq(evaluationCases.evaluationId, evaluationId), eq(evaluationCases.status, "pending")))
    .orderBy(asc(evaluationCases.position));
  const limit = pLimit(deps.judgeConcurrency);
  await Promise.all(
    pending.map(({ position, run }) =>
      limit(async () => {
        if (!(await owned())) return;
        const outcome = run
          ? await judgeCase(judge, run, texts.original, texts.amended)
          : { ok: false as const, attempts: 0, error: "the recorded run is gone" };
        const judged = await deps.db
          .update(evaluationCases)
          .set(
            outcome.ok
              ? {
                  status: "judged",
                  original: outcome.answer.original,
                  amended: outcome.answer.amended,
                  change: caseChange(outcome.answer),
                  rationale: outcome.answer.rationale,
                  attempts: outcome.attempts,
                }
              : { status: "failed", attempts: outcome.attempts, error: outcome.error },
          )
          .where(
            and(
              eq(evaluationCases.evaluationId, evaluationId),
              eq(evaluationCases.position, position),
              eq(evaluationCases.status, "pending"),
            ),
          )
          .returning({ id: evaluationCases.id });
        if (judged.length === 0) return;
        await deps.db
          .update(evaluations)
          .set({ casesDone: sql`${evaluations.casesDone} + 1` })
          .where(eq(evaluations.id, evaluationId));
      }),
    ),
  );
  const startedBy = { userId: row.startedByUserId, keyId: row.startedByKeyId, sessionId: row.startedSession };
  await finish(deps, team, startedBy, amendment, evaluationId, token);
}

/** Judging writes a case's scores together with its "judged" status; one without them is a bug. */
function judgedScores(c: typeof evaluationCases.$inferSelect): JudgedCase {
  const { original, amended } = c;
  if (!original || !amended) throw new Error(`evaluation case ${c.id} is judged but has no scores`);
  return { original, amended };
}

/**
 * Stores the verdict and moves the amendment on, in one transaction fenced by the lease token: the
 * evaluation's result, the amendment's state, the `evaluated` event and any automatic promotion
 * are written together or not at all, so a worker that took over after a crash never writes a
 * second event, and a stalled one that woke up finds the row someone else's and writes nothing.
 */
async function finish(
  deps: ModelWorkDeps,
  team: EvaluationTeam,
  startedBy: Author,
  amendment: AmendmentRow,
  evaluationId: number,
  token: string,
): Promise<void> {
  const promoted = await deps.db.transaction(async (tx) => {
    const cases = await tx.select().from(evaluationCases).where(eq(evaluationCases.evaluationId, evaluationId));
    const judged = cases.filter((c) => c.status === "judged").map(judgedScores);
    const result = verdictOf(judged);
    const [fenced] = await tx
      .update(evaluations)
      .set({
        status: "finished",
        finishedAt: new Date(),
        verdict: result.verdict,
        delta: result.delta,
        improved: result.improved,
        regressed: result.regressed,
        unchanged: result.unchanged,
        failedToJudge: cases.length - judged.length,
      })
      .where(and(eq(evaluations.id, evaluationId), eq(evaluations.status, "running"), eq(evaluations.leaseOwner, token)))
      .returning({ id: evaluations.id });
    if (!fenced) return null;
    await recordEvent(tx, team.id, amendment.skillName, "evaluated", startedBy, amendment.baseVersion, {
      evaluationId,
      amendmentId: amendment.id,
      verdict: result.verdict,
      delta: result.delta,
    });
    // The team's setting as it is now, not as it was when judging began minutes ago (docs/teams-and-keys.md#team-settings).
    const { autoPromote } = singleRow(await tx.select({ autoPromote: teams.autoPromote }).from(teams).where(eq(teams.id, team.id)));
    const outcome = await settle(tx, deps.catalogs.statics, { ...team, autoPromote }, startedBy, amendment, evaluationId, result.verdict);
    await tx.update(evaluations).set(outcome).where(eq(evaluations.id, evaluationId));
    await enqueueEvents(tx, team.id, await evaluationEvents(tx, amendment, evaluationId, result, outcome.promotedVersion));
    return outcome.promotedVersion;
  });
  if (promoted !== null) await recordListingSnapshot(deps.db, deps.catalogs, team.id, `amendment #${amendment.id} promoted`);
}

/**
 * Where a verdict leaves the amendment (docs/evaluation-and-activation.md#amendment-states): promoted on `improved` when the team promotes on its
 * own and the skill is learned; awaiting a lead's approval on `improved` otherwise for a learned
 * skill; evaluated in every other case (a built-in or file skill gets a patch instead).
 */
async function settle(
  tx: Db,
  statics: StaticCatalog,
  team: EvaluationTeam,
  startedBy: Author,
  amendment: AmendmentRow,
  evaluationId: number,
  verdict: Verdict,
): Promise<{ promotedVersion: number | null; promotionNote: string | null }> {
  const evaluated = async (promotionNote: string) => {
    await moveAmendment(tx, team.id, amendment.id, "finish", "evaluated");
    return { promotedVersion: null, promotionNote };
  };
  if (verdict !== "improved") return evaluated(`not promoted: the verdict is ${verdict}; a lead can override with a written reason`);
  if (amendment.skillSource !== "learned")
    return evaluated(`${amendment.skillSource} skills change in the repository: apply the patch and sync`);
  // Out of date (docs/evaluation-and-activation.md#out-of-date-amendments): the skill moved past its base while it was judged, so it can neither go live nor wait for approval.
  const live = await findLiveLearned(tx, team.id, amendment.skillName);
  if (live && live.currentVersion !== amendment.baseVersion)
    return evaluated(`not promoted: ${pageMessage(amendmentOutdated(amendment, live.currentVersion))}`);
  if (!team.autoPromote) {
    await moveAmendment(tx, team.id, amendment.id, "finish", "awaiting-approval");
    return { promotedVersion: null, promotionNote: "awaiting a lead's approval: auto-promotion is off for this team" };
  }
  try {
    // A savepoint: a promotion refused (the skill moved on, say) leaves the verdict to be stored.
    const version = await tx.transaction(async (savepoint) => {
      await moveAmendment(savepoint, team.id, amendment.id, "finish", "promoted");
      const applied = await applyAmendmentIn(savepoint, statics, team, SYSTEM, amendment, evaluationId, "promoted", {
        trigger: startedBy.keyId !== null ? `key ${startedBy.keyId}` : startedBy.userId !== null ? "person" : "system",
        auto: true,
      });
      return applied.version;
    });
    return { promotedVersion: version, promotionNote: null };
  } catch (error) {
    if (isAppError(error) && error.code !== "AmendmentStateChanged") return evaluated(`not promoted: ${pageMessage(error)}`);
    throw error;
  }
}

/**
 * An evaluation that could not finish: marked failed (only by the worker holding it) and its
 * amendment back where it was — evaluated when an earlier evaluation gave it a verdict, else pending.
 */
async function failEvaluation(db: Db, evaluationId: number, token: string, error: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [failed] = await tx
      .update(evaluations)
      .set({ status: "failed", error, finishedAt: new Date() })
      .where(and(eq(evaluations.id, evaluationId), eq(evaluations.status, "running"), eq(evaluations.leaseOwner, token)))
      .returning({ teamId: evaluations.teamId, amendmentId: evaluations.amendmentId });
    if (!failed) return;
    const [earlier] = await tx
      .select({ id: evaluations.id })
      .from(evaluations)
      .where(and(eq(evaluations.amendmentId, failed.amendmentId), eq(evaluations.status, "finished")))
      .limit(1);
    // The evaluation is failed whatever the amendment's state: one that is not evaluating (left so
    // by an older version of Skillgate) stays as it is, and nothing is taken over again and again.
    await moveAmendment(tx, failed.teamId as TeamId, failed.amendmentId, "fail", earlier ? "evaluated" : "pending").catch(
      (error: unknown) => {
        if (!isAppError(error) || error.code !== "AmendmentStateChanged") throw error;
      },
    );
  });
}

export interface EvaluationReport {
  id: number;
  amendmentId: number;
  skill: string;
  status: string;
  verdict: Verdict | null;
  delta: number | null;
  improved: number;
  regressed: number;
  unchanged: number;
  failedToJudge: number;
  casesTotal: number;
  casesDone: number;
  modelId: string;
  promptVersion: string;
  promotedVersion: number | null;
  promotionNote: string | null;
  error: string | null;
  note: string;
  /** For built-in and file skills: the change as a patch to apply in the repository. */
  patch: string | null;
  cases: {
    observationId: number;
    outcome: string;
    task: string;
    status: "pending" | "judged" | "failed-to-judge";
    original: { correctness: number; completeness: number; adherence: number } | null;
    amended: { correctness: number; completeness: number; adherence: number } | null;
    change: string | null;
    rationale: string | null;
    error: string | null;
  }[];
}

export const JUDGED_NOT_RUN = "a judged comparison, not a re-execution";

export async function evaluationReport(
  db: Db,
  catalogs: CatalogCache,
  team: EvaluationTeam,
  evaluationId: number,
): Promise<EvaluationReport> {
  const [row] = await db
    .select()
    .from(evaluations)
    .where(and(eq(evaluations.teamId, team.id), eq(evaluations.id, evaluationId)));
  if (!row) throw specError("EvaluationNotFound", `No evaluation #${evaluationId} in this team.`);
  const amendment = await getAmendment(db, team.id, row.amendmentId);
  const cases = await db
    .select()
    .from(evaluationCases)
    .where(eq(evaluationCases.evaluationId, evaluationId))
    .orderBy(asc(evaluationCases.position));
  let patch: string | null = null;
  if (amendment.skillSource !== "learned") {
    // The skill or its version is gone: the report has no patch to show. An outage is an outage.
    const texts = await amendmentTexts(db, catalogs, team, amendment).catch(unlessCode("SkillNotFound", "VersionNotFound"));
    if (texts)
      patch = unifiedPatch(
        `${amendment.skillName}/SKILL.md`,
        `${amendment.skillName}/SKILL.md (amendment #${amendment.id})`,
        texts.original,
        texts.amended,
      );
  }
  return {
    id: row.id,
    amendmentId: row.amendmentId,
    skill: row.skillName,
    status: row.status,
    verdict: row.verdict,
    delta: row.delta,
    improved: row.improved,
    regressed: row.regressed,
    unchanged: row.unchanged,
    failedToJudge: row.failedToJudge,
    casesTotal: row.casesTotal,
    casesDone: row.casesDone,
    modelId: row.modelId,
    promptVersion: row.promptVersion,
    promotedVersion: row.promotedVersion,
    promotionNote: row.promotionNote,
    error: row.error,
    note: JUDGED_NOT_RUN,
    patch,
    cases: cases.map((c) => ({
      observationId: c.observationId,
      outcome: c.outcome,
      task: c.task,
      status: c.status === "failed" ? "failed-to-judge" : c.status,
      original: c.original,
      amended: c.amended,
      change: c.change,
      rationale: c.rationale,
      error: c.error,
    })),
  };
}

/** `POST /api/v1/amendments/<id>/evaluate`: runs the evaluation to the end and answers its report. */
export async function evaluateAmendment(
  deps: ModelWorkDeps,
  team: EvaluationTeam,
  actor: Actor,
  amendmentId: number,
): Promise<EvaluationReport> {
  const { evaluationId, done } = await startEvaluation(deps, team, actor, amendmentId);
  await done;
  return evaluationReport(deps.db, deps.catalogs, team, evaluationId);
}
