import { desc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiKeys, evaluations, users } from "@/db/schema";
import { sideBySide, type DiffRow } from "../learned/side-by-side";
import type { CatalogCache, CatalogKey } from "../skills/catalog-cache";
import { amendmentTexts, getAmendment, type AmendmentRow } from "./amendments";

/** An amendment as a lead reviews it (§10): who proposed it, when and why, the change itself, and its evaluations. */
export interface AmendmentChange {
  amendment: AmendmentRow;
  author: string;
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
  const [texts, author, judged] = await Promise.all([
    amendmentTexts(db, catalogs, team, amendment),
    authorName(db, amendment),
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
  return { amendment, author, rows: sideBySide(texts.original, texts.amended), evaluations: judged };
}

/** Named as version rows and history events name their authors: the email, "key ci-bot · session 7f3a", or "Skillgate". */
async function authorName(db: Db, amendment: AmendmentRow): Promise<string> {
  if (amendment.authorUserId !== null) {
    const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, amendment.authorUserId));
    return user?.email ?? "a person who has left";
  }
  const session = amendment.sessionId ? ` · session ${amendment.sessionId}` : "";
  if (amendment.authorKeyId !== null) {
    const [key] = await db.select({ name: apiKeys.name }).from(apiKeys).where(eq(apiKeys.id, amendment.authorKeyId));
    return `key ${key?.name ?? amendment.authorKeyId}${session}`;
  }
  return "Skillgate";
}
