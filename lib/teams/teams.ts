import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { memberships, teams } from "@/db/schema";
import { AppError } from "../errors";
import { roleAtLeast, type Role } from "../auth/scopes";

export type TeamId = number & { readonly __brand: "TeamId" };
/** A team's URL name: `/t/<slug>`. */
export type TeamSlug = string & { readonly __brand: "TeamSlug" };

export interface Team {
  id: TeamId;
  slug: TeamSlug;
  name: string;
  listingCap: number;
  descMax: number;
  loadHint: string;
  autoPromote: boolean;
  /** Pins, unpins, label moves and rollbacks must say why (docs/learned-skills.md#reasons). */
  requireReasons: boolean;
  catalogRevision: number;
  draftsRevision: number;
}

export function teamSlugProblem(slug: string): string | null {
  if (!/^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/.test(slug) || slug.includes("--")) {
    return `team "${slug}" must be 1–40 lowercase letters, digits and single hyphens, not starting or ending with a hyphen`;
  }
  return null;
}

export function parseTeamSlug(slug: string): TeamSlug {
  const problem = teamSlugProblem(slug);
  if (problem) throw new AppError("InvalidName", problem);
  return slug as TeamSlug;
}

const teamColumns = {
  id: teams.id,
  slug: teams.slug,
  name: teams.name,
  listingCap: teams.listingCap,
  descMax: teams.descMax,
  loadHint: teams.loadHint,
  autoPromote: teams.autoPromote,
  requireReasons: teams.requireReasons,
  catalogRevision: teams.catalogRevision,
  draftsRevision: teams.draftsRevision,
};

export async function findTeam(db: Db, slug: string): Promise<Team | null> {
  const [row] = await db.select(teamColumns).from(teams).where(eq(teams.slug, slug));
  return (row as Team | undefined) ?? null;
}

export async function getTeam(db: Db, id: TeamId): Promise<Team> {
  const [row] = await db.select(teamColumns).from(teams).where(eq(teams.id, id));
  if (!row) throw new AppError("TeamNotFound", `no team ${id}`);
  return row as Team;
}

/** Creates the team unless it exists; returns it either way. */
export async function ensureTeam(db: Db, slug: string, name = slug): Promise<Team> {
  parseTeamSlug(slug);
  await db.insert(teams).values({ slug, name }).onConflictDoNothing();
  const team = await findTeam(db, slug);
  if (!team) throw new Error(`team "${slug}" was just made sure of, yet is not there`);
  return team;
}

/** Makes the person a member with `role`; with `keepHigher`, a member who already has a higher role keeps it. */
export async function setMembership(
  db: Db,
  teamId: TeamId,
  userId: number,
  role: Role,
  options: { keepHigher?: boolean } = {},
): Promise<void> {
  const [current] = options.keepHigher
    ? await db
        .select({ role: memberships.role })
        .from(memberships)
        .where(and(eq(memberships.teamId, teamId), eq(memberships.userId, userId)))
    : [];
  const kept = current && roleAtLeast(current.role, role) ? current.role : role;
  await db
    .insert(memberships)
    .values({ teamId, userId, role: kept })
    .onConflictDoUpdate({ target: [memberships.teamId, memberships.userId], set: { role: kept } });
}

export interface Membership {
  team: Team;
  role: Role;
}

export async function teamsOfUser(db: Db, userId: number): Promise<Membership[]> {
  const rows = await db
    .select({ team: teamColumns, role: memberships.role })
    .from(memberships)
    .innerJoin(teams, eq(teams.id, memberships.teamId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(teams.slug));
  return rows as Membership[];
}

/** The person's role in the team, or null when they are not a member (pages then answer 404). */
export async function membershipOf(db: Db, userId: number, slug: string): Promise<Membership | null> {
  const [row] = await db
    .select({ team: teamColumns, role: memberships.role })
    .from(memberships)
    .innerJoin(teams, eq(teams.id, memberships.teamId))
    .where(and(eq(memberships.userId, userId), eq(teams.slug, slug)));
  return (row as Membership | undefined) ?? null;
}
