import { randomBytes } from "node:crypto";
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { singleRow } from "@/db/rows";
import { installLinks, users } from "@/db/schema";
import { AppError } from "../errors";
import { sha256Hex } from "../hash";
import { INSTALL_LINK_PREFIX } from "../auth/install-link-auth";
import type { LabelName } from "../skills/label";
import type { TeamId } from "./teams";

/**
 * Install links (docs/teams-and-keys.md#install-links): for installers that cannot send a key (`npx skills add <url>`). The token
 * sits in the URL, so a link is read-only and answers nothing but the skills index and its files
 * (`<url>/.well-known/skills/…`); a lead lists and revokes links like keys. Tokens are random 192-bit
 * strings, stored as their SHA-256 like API keys, and shown once.
 */

export type InstallLinkId = number & { readonly __brand: "InstallLinkId" };

export function installLinkUrl(origin: string, token: string): string {
  return `${origin}/i/${token}`;
}

export interface NewInstallLink {
  id: InstallLinkId;
  url: string;
  token: string;
  label: LabelName | null;
}

/** A new link; one made for a label (docs/learned-skills.md#labels) installs, for every skill, the version with that label. */
export async function createInstallLink(
  db: Db,
  teamId: TeamId,
  origin: string,
  by: { userId: number | null; keyId: number | null },
  label: LabelName | null = null,
): Promise<NewInstallLink> {
  const token = `${INSTALL_LINK_PREFIX}${randomBytes(24).toString("base64url")}`;
  const rows = await db
    .insert(installLinks)
    .values({ teamId, prefix: token.slice(0, 10), tokenHash: sha256Hex(token), createdBy: by.userId, createdByKey: by.keyId, label })
    .returning({ id: installLinks.id });
  return { id: singleRow(rows).id as InstallLinkId, url: installLinkUrl(origin, token), token, label };
}

export interface InstallLinkRow {
  id: InstallLinkId;
  prefix: string;
  createdAt: Date;
  /** The person who made it, or null when a key did (or the person is gone). */
  createdBy: string | null;
  revokedAt: Date | null;
  /** The label whose versions it installs, or null for the default ones. */
  label: LabelName | null;
}

export async function listInstallLinks(db: Db, teamId: TeamId): Promise<InstallLinkRow[]> {
  const rows = await db
    .select({
      id: installLinks.id,
      prefix: installLinks.prefix,
      createdAt: installLinks.createdAt,
      createdBy: users.email,
      revokedAt: installLinks.revokedAt,
      label: installLinks.label,
    })
    .from(installLinks)
    .leftJoin(users, eq(users.id, installLinks.createdBy))
    .where(eq(installLinks.teamId, teamId))
    .orderBy(desc(installLinks.createdAt), desc(installLinks.id));
  return rows.map((row) => ({ ...row, id: row.id as InstallLinkId, label: row.label as LabelName | null }));
}

/** Revokes an active link of this team; any other id (another team's, a revoked one) is not found. */
export async function revokeInstallLink(db: Db, teamId: TeamId, id: InstallLinkId): Promise<{ id: InstallLinkId; revokedAt: Date }> {
  const rows = await db
    .update(installLinks)
    .set({ revokedAt: new Date() })
    .where(and(eq(installLinks.teamId, teamId), eq(installLinks.id, id), isNull(installLinks.revokedAt)))
    .returning({ revokedAt: installLinks.revokedAt });
  const [row] = rows;
  if (!row?.revokedAt) throw new AppError("InstallLinkNotFound", `no active install link ${id} in this team`);
  return { id, revokedAt: row.revokedAt };
}
