import { and, asc, eq, max } from "drizzle-orm";
import type { Db } from "@/db/client";
import { singleRow } from "@/db/rows";
import { ledgerRecords, ledgers } from "@/db/schema";
import { ledgerBody, ledgerSlugParam, type LedgerInput } from "./input";
import { AppError, specError } from "../errors";
import { parseWith } from "../validation";
import { parseSkillName } from "../skills/name";
import type { TeamId } from "../teams/teams";
import {
  ID_PREFIX,
  ledgerKey,
  VERDICTS,
  type LedgerAction,
  type LedgerRecord,
  type LedgerSlug,
  type RecordKind,
  type Verdict,
} from "./records";

export interface LedgerAuthor {
  keyId: number | null;
  userId: number | null;
  sessionId: string | null;
  /** When the record was made, if not now: the demo seed writes a history that spans weeks. */
  at?: Date;
}

/** A plan's slug from a URL, with the ledger's own refusal (docs/ledger.md#plans-and-keys). */
export function parseLedgerSlug(slug: string): LedgerSlug {
  return parseWith(ledgerSlugParam, slug, "InvalidPath");
}

function parseLedgerAction(action: string): LedgerAction {
  return parseWith(ledgerBody.shape.action, action, "InvalidField") as LedgerAction;
}

const REQUIRED: Record<Exclude<LedgerAction, "list">, (keyof LedgerInput)[]> = {
  "record-hypothesis": ["text"],
  "record-prediction": ["text", "falsifiedBy", "id"],
  "record-verdict": ["id", "verdict"],
  "record-observation": ["text"],
  "record-conclusion": ["text"],
  "record-skip": ["id", "reason"],
};

const KIND_OF: Record<Exclude<LedgerAction, "list">, RecordKind> = {
  "record-hypothesis": "hypothesis",
  "record-prediction": "prediction",
  "record-verdict": "verdict",
  "record-observation": "observation",
  "record-conclusion": "conclusion",
  "record-skip": "skip",
};

const filled = (value: string | undefined): value is string => value !== undefined && value.trim() !== "";

/** A field `checkFields` already required of this action, so it is filled in. */
function required(input: LedgerInput, field: keyof LedgerInput): string {
  const value = input[field];
  if (!filled(value)) throw new Error(`${field} passed checkFields but is empty`);
  return value;
}

/** The gates of docs/ledger.md#actions-and-gates that need no database: every required field non-empty, a known verdict, evidence where it is due. */
function checkFields(action: Exclude<LedgerAction, "list">, input: LedgerInput): void {
  for (const field of REQUIRED[action]) {
    if (!filled(input[field])) throw specError("MissingField", `${action} requires ${field}`);
  }
  if (action !== "record-verdict") return;
  const verdict = required(input, "verdict");
  if (!(VERDICTS as readonly string[]).includes(verdict)) {
    throw specError("InvalidVerdict", `verdict must be confirmed, refuted or inconclusive, not "${verdict.slice(0, 40)}"`);
  }
  if (input.verdict !== "inconclusive" && !filled(input.evidence)) {
    throw specError("MissingField", `record-verdict requires evidence`);
  }
}

/** Appends one record: the ledger row is locked for the transaction, so ids are given out in order. */
export async function appendRecord(
  db: Db,
  teamId: TeamId,
  slug: LedgerSlug,
  input: LedgerInput,
  author: LedgerAuthor,
): Promise<LedgerRecord> {
  const action = parseLedgerAction(input.action);
  if (action === "list") throw new AppError("BadRequest", "list reads the ledger; it does not append");
  checkFields(action, input);
  if (filled(input.skill)) parseSkillName(input.skill);
  const kind = KIND_OF[action];
  return db
    .transaction(async (tx) => {
      const ledger = await lockLedger(tx, teamId, slug, input.skill);
      const ref = kind === "prediction" ? await hypothesisRef(tx, ledger, slug, required(input, "id")) : null;
      const judged = kind === "verdict" || kind === "skip" ? await predictionRef(tx, ledger, slug, required(input, "id")) : null;
      const [{ last } = { last: 0 }] = await tx
        .select({ last: max(ledgerRecords.seq) })
        .from(ledgerRecords)
        .where(and(eq(ledgerRecords.ledgerId, ledger.id), eq(ledgerRecords.kind, kind)));
      const values = {
        ledgerId: ledger.id,
        kind,
        seq: (last ?? 0) + 1,
        ref: ref ?? judged,
        text: kind === "verdict" || kind === "skip" ? null : required(input, "text"),
        falsifiedBy: kind === "prediction" ? required(input, "falsifiedBy") : null,
        verdict: kind === "verdict" ? (input.verdict as Verdict) : null,
        evidence: kind === "verdict" && filled(input.evidence) ? input.evidence : null,
        reason: kind === "skip" ? required(input, "reason") : null,
        keyId: author.keyId,
        userId: author.userId,
        sessionId: author.sessionId,
        ...(author.at && { createdAt: author.at }),
      };
      const rows = await tx.insert(ledgerRecords).values(values).returning();
      return toRecord(singleRow(rows));
    })
    .catch((error: unknown) => {
      // Two verdicts racing past the check still meet the unique index: one wins, the other is told.
      if (isJudgementClash(error)) throw alreadyJudged(required(input, "id"));
      throw error;
    });
}

async function lockLedger(tx: Db, teamId: TeamId, slug: string, skill: string | undefined) {
  await tx
    .insert(ledgers)
    .values({ teamId, slug, skill: filled(skill) ? skill : null })
    .onConflictDoNothing();
  const rows = await tx
    .select()
    .from(ledgers)
    .where(and(eq(ledgers.teamId, teamId), eq(ledgers.slug, slug)))
    .for("update");
  const ledger = singleRow(rows);
  if (filled(skill) && ledger.skill !== skill) {
    if (ledger.skill) throw specError("SkillMismatch", `${ledgerKey(slug)} exercises ${ledger.skill}, not ${skill}`);
    await tx.update(ledgers).set({ skill }).where(eq(ledgers.id, ledger.id));
  }
  return ledger;
}

function parseId(id: string, prefix: string): number | null {
  const match = new RegExp(`^${prefix}([1-9]\\d{0,8})$`).exec(id);
  return match ? Number(match[1]) : null;
}

async function exists(tx: Db, ledgerId: number, kind: RecordKind, seq: number | null): Promise<boolean> {
  if (seq === null) return false;
  const rows = await tx
    .select({ id: ledgerRecords.id })
    .from(ledgerRecords)
    .where(and(eq(ledgerRecords.ledgerId, ledgerId), eq(ledgerRecords.kind, kind), eq(ledgerRecords.seq, seq)));
  return rows.length > 0;
}

async function hypothesisRef(tx: Db, ledger: { id: number }, slug: string, id: string): Promise<string> {
  if (!(await exists(tx, ledger.id, "hypothesis", parseId(id, ID_PREFIX.hypothesis)))) {
    throw specError("UnknownHypothesis", `${id} is not a hypothesis of ${ledgerKey(slug)}`);
  }
  return id;
}

/** The prediction a verdict or skip is about: it must exist and still be open. */
async function predictionRef(tx: Db, ledger: { id: number }, slug: string, id: string): Promise<string> {
  if (!(await exists(tx, ledger.id, "prediction", parseId(id, ID_PREFIX.prediction)))) {
    throw specError("UnknownPrediction", `${id} is not a prediction of ${ledgerKey(slug)}`);
  }
  const [judgement] = await tx
    .select({ kind: ledgerRecords.kind, seq: ledgerRecords.seq })
    .from(ledgerRecords)
    .where(and(eq(ledgerRecords.ledgerId, ledger.id), eq(ledgerRecords.ref, id), eq(ledgerRecords.kind, "verdict")));
  if (judgement) throw alreadyJudged(id);
  const [skip] = await tx
    .select({ seq: ledgerRecords.seq })
    .from(ledgerRecords)
    .where(and(eq(ledgerRecords.ledgerId, ledger.id), eq(ledgerRecords.ref, id), eq(ledgerRecords.kind, "skip")));
  if (skip) throw specError("PredictionAlreadyJudged", `${id} was skipped (S${skip.seq})`);
  return id;
}

function alreadyJudged(id: string) {
  return specError("PredictionAlreadyJudged", `${id} already has a verdict`);
}

function isJudgementClash(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, constraint, message } = e as { code?: string; constraint?: string; message?: string };
    if (code === "23505" && (constraint === "ledger_records_one_judgement_key" || message?.includes("ledger_records_one_judgement_key")))
      return true;
  }
  return false;
}

export function toRecord(row: typeof ledgerRecords.$inferSelect): LedgerRecord {
  return {
    id: `${ID_PREFIX[row.kind]}${row.seq}`,
    kind: row.kind,
    ref: row.ref,
    text: row.text,
    falsifiedBy: row.falsifiedBy,
    verdict: row.verdict,
    evidence: row.evidence,
    reason: row.reason,
    createdAt: row.createdAt,
  };
}

/** Every record of a plan's ledger in the order written; an unknown plan has none. */
export async function readLedger(db: Db, teamId: TeamId, slug: LedgerSlug): Promise<LedgerRecord[]> {
  const rows = await db
    .select({ record: ledgerRecords })
    .from(ledgerRecords)
    .innerJoin(ledgers, eq(ledgers.id, ledgerRecords.ledgerId))
    .where(and(eq(ledgers.teamId, teamId), eq(ledgers.slug, slug)))
    .orderBy(asc(ledgerRecords.id));
  return rows.map((row) => toRecord(row.record));
}
