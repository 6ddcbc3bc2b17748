import { desc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { evaluations } from "@/db/schema";
import { sideBySide, type DiffRow } from "../learned/side-by-side";
import type { CatalogCache, CatalogKey } from "../skills/catalog-cache";
import { amendmentTexts, getAmendment, listAmendments, type AmendmentEntry, type AmendmentRow } from "./amendments";

/** An amendment as a lead reviews it (docs/learned-skills.md#governed-promotion): its state and the decisions on it, who proposed it, the change itself, and its evaluations. */
export interface AmendmentChange {
  amendment: AmendmentRow;
  /** As every list shows it: state, author, decisions, rejection. */
  entry: AmendmentEntry;
  rows: DiffRow[];
  evaluations: {
    id: number;
    status: string;
    verdict: string | null;
    delta: number | null;
    promotedVersion: number | null;
    startedAt: Date;
  }[];
}

export async function amendmentChange(db: Db, catalogs: CatalogCache, team: CatalogKey, id: number): Promise<AmendmentChange> {
  const amendment = await getAmendment(db, team.id, id);
  const [texts, [entry], judged] = await Promise.all([
    amendmentTexts(db, catalogs, team, amendment),
    listAmendments({ db, catalogs }, team, { ids: [id] }),
    db
      .select({
        id: evaluations.id,
        status: evaluations.status,
        verdict: evaluations.verdict,
        delta: evaluations.delta,
        promotedVersion: evaluations.promotedVersion,
        startedAt: evaluations.startedAt,
      })
      .from(evaluations)
      .where(eq(evaluations.amendmentId, id))
      .orderBy(desc(evaluations.id)),
  ]);
  if (!entry) throw new Error(`amendment #${id} was read and then not listed`);
  return { amendment, entry, rows: sideBySide(texts.original, texts.amended), evaluations: judged };
}
