import { and, eq, gte, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { skillActivationDays, skillActivationPeople, telemetryDays } from "@/db/schema";
import type { TeamId } from "../teams/teams";
import { daysBefore, utcDay, type UtcDay } from "./rollups";

/**
 * Activations in production (docs/telemetry.md#activations), read from the rollups the telemetry receiver writes
 * (db/schema/telemetry.ts): who chose each skill — the model from its description (proactive), a
 * person typing `/name` (slash), or another skill (nested) — per day, never from the raw events,
 * so a read costs a row per skill per day whatever was received.
 */

export const TRIGGERS = ["proactive", "slash", "nested"] as const;
export type Trigger = (typeof TRIGGERS)[number];

/** The name Claude Code reports for a custom skill unless `OTEL_LOG_TOOL_DETAILS=1`: counted as unnamed. */
export const UNNAMED_SKILL = "custom_skill";

export interface Activations {
  proactive: number;
  slash: number;
  nested: number;
}

export interface SkillActivations extends Activations {
  /** People who activated it in the window. */
  people: number;
}

/** The usage windows are whole UTC days: 30 days is today and the 29 before it. */
export const ACTIVATION_DAYS = 30;

/** Activations and people of every name activated in the last 30 days, by name as the agents sent it. */
export async function activationsBySkill(db: Db, teamId: TeamId, now = new Date()): Promise<Map<string, SkillActivations>> {
  const since = daysBefore(now, ACTIVATION_DAYS - 1);
  // A person activated it in the window when their last activation of it falls in the window.
  const counts = await db
    .select({
      name: skillActivationDays.skillName,
      proactive: sql<number>`sum(${skillActivationDays.proactive})`.mapWith(Number),
      slash: sql<number>`sum(${skillActivationDays.slash})`.mapWith(Number),
      nested: sql<number>`sum(${skillActivationDays.nested})`.mapWith(Number),
      people: sql<number>`sum(${skillActivationDays.people})`.mapWith(Number),
    })
    .from(skillActivationDays)
    .where(and(eq(skillActivationDays.teamId, teamId), gte(skillActivationDays.day, since)))
    .groupBy(skillActivationDays.skillName);
  return new Map(counts.map(({ name, ...counted }) => [name, counted]));
}

export function totalActivations(activations: Activations): number {
  return activations.proactive + activations.slash + activations.nested;
}

/** Activations of no skill in the catalog, in the last 30 days. */
export interface UnlistedActivations {
  /** Of custom skills whose names the agent hid (Claude Code without `OTEL_LOG_TOOL_DETAILS=1`). */
  unnamed: number;
  /** Of names the catalog does not hold, most used first. */
  outsideRegistry: { name: string; activations: number }[];
}

/** The activations of `activationsBySkill` that no skill of the catalog has a row for. */
export function unlistedActivations(
  activated: ReadonlyMap<string, Activations>,
  catalog: { named: ReadonlyMap<string, unknown> },
): UnlistedActivations {
  const outsideRegistry = [...activated]
    .filter(([name]) => name !== UNNAMED_SKILL && !catalog.named.has(name))
    .map(([name, counts]) => ({ name, activations: totalActivations(counts) }))
    .sort((x, y) => y.activations - x.activations || (x.name < y.name ? -1 : 1));
  const unnamed = activated.get(UNNAMED_SKILL);
  return { unnamed: unnamed ? totalActivations(unnamed) : 0, outsideRegistry };
}

/**
 * Used only by people typing `/name`: the model never chose it, so its description does not
 * make the model choose it (docs/telemetry.md).
 */
export function typedOnly(activations: Activations | undefined): boolean {
  return activations !== undefined && activations.slash > 0 && activations.proactive === 0;
}

/** Prompts the agents reported in the last 30 days: the denominator of proactive activations per 100 prompts. */
export async function promptsInWindow(db: Db, teamId: TeamId, now = new Date()): Promise<number> {
  const [row] = await db
    .select({ prompts: sql<number>`coalesce(sum(${telemetryDays.prompts}), 0)`.mapWith(Number) })
    .from(telemetryDays)
    .where(and(eq(telemetryDays.teamId, teamId), gte(telemetryDays.day, daysBefore(now, ACTIVATION_DAYS - 1))));
  return row?.prompts ?? 0;
}

/** Proactive activations per 100 prompts, one decimal; null with no prompts to divide by. */
export function per100Prompts(proactive: number, prompts: number): number | null {
  return prompts === 0 ? null : Math.round((proactive / prompts) * 1000) / 10;
}

export interface ActivationDay extends Activations {
  day: UtcDay;
}

export interface VersionInProduction {
  version: number;
  /** The first day it was live (the day it was made) and the last (the day before the next was made, or today). */
  from: UtcDay;
  to: UtcDay;
  proactive: number;
  prompts: number;
  per100Prompts: number | null;
}

export interface SkillProduction {
  days: ActivationDay[];
  versions: VersionInProduction[];
  /** Who activated it in the window, most days first, at most 50 (for leads; others see the count alone). */
  people: { person: string; days: number }[];
  /** How many people activated it in the window. */
  peopleCount: number;
}

/**
 * A skill in production over the last `days` days: activations per day by trigger, and per
 * version the proactive activations per 100 of the team's prompts while it was live — did a new
 * description make the model choose it more often? Days are whole: a version made during a day
 * counts from that day, and the version it replaced up to the day before.
 */
export async function skillProduction(
  db: Db,
  teamId: TeamId,
  name: string,
  versions: readonly { version: number; madeAt: Date }[],
  now = new Date(),
  days = 90,
): Promise<SkillProduction> {
  const since = daysBefore(now, days - 1);
  const [activationRows, promptRows, peopleRows] = await Promise.all([
    db
      .select({
        day: skillActivationDays.day,
        proactive: skillActivationDays.proactive,
        slash: skillActivationDays.slash,
        nested: skillActivationDays.nested,
        people: skillActivationDays.people,
      })
      .from(skillActivationDays)
      .where(and(eq(skillActivationDays.teamId, teamId), eq(skillActivationDays.skillName, name), gte(skillActivationDays.day, since)))
      .orderBy(skillActivationDays.day),
    db
      .select({ day: telemetryDays.day, prompts: telemetryDays.prompts })
      .from(telemetryDays)
      .where(and(eq(telemetryDays.teamId, teamId), gte(telemetryDays.day, since))),
    db
      .select({ person: skillActivationPeople.person, days: sql<number>`count(*)`.mapWith(Number) })
      .from(skillActivationPeople)
      .where(
        and(eq(skillActivationPeople.teamId, teamId), eq(skillActivationPeople.skillName, name), gte(skillActivationPeople.day, since)),
      )
      .groupBy(skillActivationPeople.person)
      .orderBy(sql`count(*) desc`, skillActivationPeople.person)
      .limit(50),
  ]);
  const activationDays = activationRows.map(({ people: _lastDayOf, ...row }) => ({ ...row, day: row.day as UtcDay }));
  const prompts = promptRows.map((row) => ({ day: row.day as UtcDay, prompts: row.prompts }));
  return {
    days: activationDays,
    versions: versionsInProduction(versions, activationDays, prompts, now),
    people: peopleRows,
    peopleCount: activationRows.reduce((sum, row) => sum + row.people, 0),
  };
}

/** Per version, its live days and the proactive activations and prompts in them. Pure. */
export function versionsInProduction(
  versions: readonly { version: number; madeAt: Date }[],
  days: readonly ActivationDay[],
  prompts: readonly { day: UtcDay; prompts: number }[],
  now: Date,
): VersionInProduction[] {
  const ordered = [...versions].sort((a, b) => a.version - b.version);
  const today = utcDay(now);
  return ordered.map((version, i) => {
    const next = ordered[i + 1];
    const from = utcDay(version.madeAt);
    const to = next ? daysBefore(next.madeAt, 1) : today;
    const within = (day: UtcDay) => day >= from && day <= to;
    const proactive = days.filter((row) => within(row.day)).reduce((sum, row) => sum + row.proactive, 0);
    const asked = prompts.filter((row) => within(row.day)).reduce((sum, row) => sum + row.prompts, 0);
    return { version: version.version, from, to, proactive, prompts: asked, per100Prompts: per100Prompts(proactive, asked) };
  });
}
