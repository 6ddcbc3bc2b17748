import { randomBytes } from "node:crypto";
import { and, asc, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { singleRow } from "@/db/rows";
import { invitations, teams } from "@/db/schema";
import type { Role } from "../auth/scopes";
import { normalizeEmail, ownedEmails } from "../auth/users";
import { AppError } from "../errors";
import { sha256Hex } from "../hash";
import { logUnexpected } from "../log";
import type { Mail, Mailer } from "../mail/mailer";
import type { LinkOrigin } from "../public-url";
import { roleOfEmail } from "./members";
import { getTeam, setMembership, type TeamId } from "./teams";

/**
 * Invitations (docs/teams-and-keys.md#members-and-invitations): a lead invites a person by email with a role and gets a one-time link,
 * valid for 7 days. It belongs to its address: only a person signed in with that email (or a
 * GitHub account that verified it) accepts it, and becomes a member with that role. The token is
 * stored as its SHA-256 and shown once.
 */

export type InvitationId = number & { readonly __brand: "InvitationId" };

export const INVITATION_DAYS = 7;
const TOKEN_PREFIX = "sgv_";

export function invitationUrl(origin: string, token: string): string {
  return `${origin}/invite/${token}`;
}

export interface NewInvitation {
  id: InvitationId;
  url: string;
  expiresAt: Date;
}

/**
 * Invites `email` with `role`. A person already in the team is refused; an earlier pending
 * invitation of the same email is withdrawn, so only the newest link works.
 */
export async function createInvitation(
  db: Db,
  teamId: TeamId,
  input: { email: string; role: Role },
  origin: string,
  by: { userId: number | null; keyId: number | null },
  now = new Date(),
): Promise<NewInvitation> {
  const email = normalizeEmail(input.email);
  const role = await roleOfEmail(db, teamId, email);
  if (role) throw new AppError("AlreadyMember", `${email} is already a member of this team (${role}); change their role instead`);
  const token = `${TOKEN_PREFIX}${randomBytes(24).toString("base64url")}`;
  const expiresAt = new Date(now.getTime() + INVITATION_DAYS * 24 * 60 * 60 * 1000);
  const id = await db.transaction(async (tx) => {
    await tx
      .update(invitations)
      .set({ revokedAt: now })
      .where(
        and(eq(invitations.teamId, teamId), eq(invitations.email, email), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)),
      );
    const rows = await tx
      .insert(invitations)
      .values({ teamId, email, role: input.role, tokenHash: sha256Hex(token), createdBy: by.userId, createdByKey: by.keyId, expiresAt })
      .returning({ id: invitations.id });
    return singleRow(rows).id as InvitationId;
  });
  return { id, url: invitationUrl(origin, token), expiresAt };
}

/** Why an invitation's link was not mailed. */
export type NotMailed = "no-mail-server" | "no-public-url" | "send-failed";

/** What `POST /api/v1/invitations` answers as `notMailed`, exactly. */
export const NOT_MAILED: Record<NotMailed, string> = {
  "no-mail-server": "no mail server is configured (SKILLGATE_SMTP_URL): pass the link on",
  "no-public-url":
    "AUTH_URL is not set, so the link is not mailed: this server does not know the address people open it at. Pass the link on, or set AUTH_URL",
  "send-failed": "the mail server did not take the mail (the server's log says why): pass the link on",
};

export interface SentInvitation extends NewInvitation {
  /** Whether the link was mailed to the person; when not, the lead passes it on. */
  mailed: boolean;
  /** Why not; null when it was mailed. */
  notMailed: NotMailed | null;
}

/**
 * `POST /api/v1/invitations` and the settings page: invites, then mails the link where mail is
 * configured (docs/teams-and-keys.md#members-and-invitations). The invitation stands whether or not the mail goes: a failed send is logged
 * and answered as `mailed: false`, and the lead still has the link. A link is mailed only when
 * its origin is the configured public URL: one taken from the request could send the person's
 * one-time link to a host the request named.
 */
export async function invite(
  deps: { db: Db; mailer: Mailer | null },
  teamId: TeamId,
  input: { email: string; role: Role },
  origin: LinkOrigin,
  by: { userId: number | null; keyId: number | null },
): Promise<SentInvitation> {
  const invitation = await createInvitation(deps.db, teamId, input, origin.origin, by);
  if (!deps.mailer) return { ...invitation, mailed: false, notMailed: "no-mail-server" };
  if (!origin.configured) return { ...invitation, mailed: false, notMailed: "no-public-url" };
  const team = await getTeam(deps.db, teamId);
  try {
    await deps.mailer.send(invitationMail(team.name, normalizeEmail(input.email), input.role, invitation));
    return { ...invitation, mailed: true, notMailed: null };
  } catch (error) {
    logUnexpected(`mailing the invitation #${invitation.id}`, error);
    return { ...invitation, mailed: false, notMailed: "send-failed" };
  }
}

export function invitationMail(teamName: string, email: string, role: Role, invitation: NewInvitation): Mail {
  const until = invitation.expiresAt.toISOString().slice(0, 10);
  return {
    to: email,
    subject: `You are invited to ${teamName} on Skillgate`,
    text: [
      `You are invited to join ${teamName} on Skillgate as ${role}.`,
      "",
      `Open this link to set a password (or sign in) and join: ${invitation.url}`,
      "",
      `It works once, until ${until}. If you did not expect it, ignore this mail.`,
      "",
    ].join("\n"),
  };
}

export interface PendingInvitation {
  id: InvitationId;
  email: string;
  role: Role;
  createdAt: Date;
  expiresAt: Date;
}

/** Invitations not yet accepted, withdrawn or expired, oldest first. */
export async function pendingInvitations(db: Db, teamId: TeamId, now = new Date()): Promise<PendingInvitation[]> {
  const rows = await db
    .select({
      id: invitations.id,
      email: invitations.email,
      role: invitations.role,
      createdAt: invitations.createdAt,
      expiresAt: invitations.expiresAt,
    })
    .from(invitations)
    .where(
      and(eq(invitations.teamId, teamId), isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, now)),
    )
    .orderBy(asc(invitations.createdAt), asc(invitations.id));
  return rows.map((row) => ({ ...row, id: row.id as InvitationId }));
}

export async function withdrawInvitation(
  db: Db,
  teamId: TeamId,
  id: InvitationId,
  now = new Date(),
): Promise<{ id: InvitationId; revokedAt: Date }> {
  const rows = await db
    .update(invitations)
    .set({ revokedAt: now })
    .where(and(eq(invitations.teamId, teamId), eq(invitations.id, id), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)))
    .returning({ id: invitations.id });
  if (rows.length === 0) throw new AppError("InvitationNotFound", `no pending invitation ${id} in this team`);
  return { id, revokedAt: now };
}

/** What the invitation page shows: whose team, which role, for whom; null when the link no longer opens anything. */
export interface OpenInvitation {
  id: InvitationId;
  email: string;
  role: Role;
  team: { id: TeamId; slug: string; name: string };
  expiresAt: Date;
}

export async function openInvitation(db: Db, token: string, now = new Date()): Promise<OpenInvitation | null> {
  if (!token.startsWith(TOKEN_PREFIX)) return null;
  const [row] = await db
    .select({
      id: invitations.id,
      email: invitations.email,
      role: invitations.role,
      expiresAt: invitations.expiresAt,
      acceptedAt: invitations.acceptedAt,
      revokedAt: invitations.revokedAt,
      team: { id: teams.id, slug: teams.slug, name: teams.name },
    })
    .from(invitations)
    .innerJoin(teams, eq(teams.id, invitations.teamId))
    .where(eq(invitations.tokenHash, sha256Hex(token)));
  if (!row || row.acceptedAt || row.revokedAt || row.expiresAt <= now) return null;
  return {
    id: row.id as InvitationId,
    email: row.email,
    role: row.role,
    team: { ...row.team, id: row.team.id as TeamId },
    expiresAt: row.expiresAt,
  };
}

export const invitationGone = () =>
  new AppError("InvitationNotFound", "this invitation has expired, was used or was withdrawn; ask a lead of the team for a new one");

/** Whether this person may accept an invitation to `invited`: it belongs to its address (docs/teams-and-keys.md#members-and-invitations), compared case-insensitively. */
export function isInvitee(owned: readonly string[], invited: string): boolean {
  return owned.includes(normalizeEmail(invited));
}

/** `403 InvitationNotYours`: someone else opened the link; it stays unused for its owner. */
export function notYourInvitation(invited: string, signedInAs: string): AppError {
  return new AppError(
    "InvitationNotYours",
    `this invitation is for ${invited}, and you are signed in as ${signedInAs}; sign out and open the link again as ${invited}`,
  );
}

/**
 * Makes `userId` a member with the invited role, once, if the invitation is theirs: the row is
 * locked and marked used in the same transaction, so two tabs accepting at once make one
 * membership. A person already in the team keeps the higher of the two roles.
 */
export async function acceptInvitation(db: Db, token: string, userId: number, now = new Date()): Promise<OpenInvitation> {
  return db.transaction(async (tx) => {
    const invitation = await openInvitation(tx, token, now);
    if (!invitation) throw invitationGone();
    const owned = await ownedEmails(tx, userId);
    if (!owned) throw new AppError("Unauthorized", "sign in first, then accept");
    if (!isInvitee(owned.all, invitation.email)) throw notYourInvitation(invitation.email, owned.email);
    const claimed = await tx
      .update(invitations)
      .set({ acceptedAt: now, acceptedBy: userId })
      .where(and(eq(invitations.id, invitation.id), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)))
      .returning({ id: invitations.id });
    if (claimed.length === 0) throw invitationGone();
    await setMembership(tx, invitation.team.id, userId, invitation.role, { keepHigher: true });
    return invitation;
  });
}
