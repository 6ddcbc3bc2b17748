import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { telemetryDays } from "@/db/schema";
import type { VersionInfo } from "../learned/history";
import { personName, type NamedPerson } from "../telemetry/person-names";
import { unknownPeopleNumbers } from "../telemetry/unknown-people";
import { teamSettings } from "../listing/settings";
import { mutedToolsOf } from "../telemetry/muted-tools";
import type { TeamId } from "../teams/teams";
import { skillProduction, type ActivationDay, type SkillProduction, type VersionInProduction } from "../usage/activations";
import { noSkillProduction, versionProduction, withProduction, type Production, type Rate } from "../usage/production";
import { chosenRate } from "./production-figures";
import { daysBefore, type UtcDay } from "../usage/rollups";

/**
 * What the dashboard shows of production telemetry (docs/telemetry.md#activations) beyond the usage rows: the activations
 * the overview has no row for, and a skill's days and versions in production, shaped for a chart.
 */

/** The skill page's window: a quarter, so a description changed a month or two ago still shows its before and after. */
export const PRODUCTION_DAYS = 90;

/** One day of the chart: every day from its first has one, quiet days with zeros, so the axis keeps time. */
export interface ChartDay {
  day: UtcDay;
  proactive: number;
  typed: number;
  nested: number;
}

/** A line on the chart where versions went live; versions made the same day share one. */
export interface VersionMarker {
  day: UtcDay;
  /** Oldest first. */
  versions: number[];
}

/** Someone who activated the skill, as a lead reads them: never a hash (lib/telemetry/person-names.ts). */
export interface PersonInProduction extends NamedPerson {
  days: number;
}

export interface SkillInProduction extends Omit<SkillProduction, "people"> {
  people: PersonInProduction[];
  chart: ChartDay[];
  markers: VersionMarker[];
  /** Whether any telemetry ever reached the team: without it the page says how to connect an agent. */
  connected: boolean;
  /** Is it helping? What the agents did while each version was loaded. */
  figures: ProductionFigures;
}

/** One version's production beside the version before it and the prompts with no skill loaded. */
export type VersionFigures = ReturnType<typeof withProduction<{ version: number }>>[number];

/**
 * A skill's production figures by version, over all the telemetry the team has received (the
 * per-prompt rollup is kept for good), with the no-skill baseline over the same rollup.
 */
export interface ProductionFigures {
  /** Oldest first; a version no agent loaded has zeros. */
  versions: VersionFigures[];
  noSkill: Production;
  /** Tools whose failures make no observation of this skill (a lead's choice). */
  mutedTools: string[];
  /** Tools' error texts are kept only while the team keeps prompt texts. */
  storesPrompts: boolean;
}

/**
 * A skill in production over the last 90 days. Versions are dated by when they were made; a
 * built-in's one version has no date of its own (it is whatever this deployment ships), so it
 * counts over the whole window, with no marker: nothing changed it.
 */
export async function skillInProduction(
  db: Db,
  teamId: TeamId,
  name: string,
  versions: readonly Pick<VersionInfo, "version" | "createdAt">[],
  now = new Date(),
): Promise<SkillInProduction> {
  const windowStart = new Date(`${daysBefore(now, PRODUCTION_DAYS - 1)}T00:00:00Z`);
  const made = versions.map((v) => ({ version: v.version, madeAt: v.createdAt === null ? windowStart : new Date(v.createdAt) }));
  const [production, telemetry, figures] = await Promise.all([
    skillProduction(db, teamId, name, made, now, PRODUCTION_DAYS),
    telemetrySince(db, teamId, daysBefore(now, PRODUCTION_DAYS - 1)),
    productionFigures(db, teamId, name, versions),
  ]);
  const dated = production.versions.filter((v) => versions.find((w) => w.version === v.version)?.createdAt !== null);
  const numbers = await unknownPeopleNumbers(
    db,
    teamId,
    production.people.map((p) => p.person),
  );
  return {
    ...production,
    people: production.people.map((p) => ({ ...personName(p.person, numbers), days: p.days })),
    ...productionChart(production.days, dated, now, PRODUCTION_DAYS, telemetry.firstDay),
    connected: telemetry.connected,
    figures,
  };
}

async function productionFigures(
  db: Db,
  teamId: TeamId,
  name: string,
  versions: readonly { version: number }[],
): Promise<ProductionFigures> {
  const [byVersion, noSkill, muted, settings] = await Promise.all([
    versionProduction(db, teamId, name),
    noSkillProduction(db, teamId),
    mutedToolsOf(db, teamId, name),
    teamSettings(db, teamId),
  ]);
  const ordered = [...versions].sort((a, b) => a.version - b.version).map(({ version }) => ({ version }));
  return {
    versions: withProduction(ordered, byVersion, noSkill),
    noSkill,
    mutedTools: muted,
    storesPrompts: settings.storePrompts,
  };
}

/**
 * The chart's days, oldest first, and a marker on each day in the window that versions went live.
 * The axis starts at the data's first day — the first the team's agents reported anything
 * (`telemetryFrom`), an activation, or a version going live, whichever came first — not 90 days
 * back: before telemetry began a day has no zero to draw, only nothing known. Pure.
 */
export function productionChart(
  days: readonly ActivationDay[],
  versions: readonly Pick<VersionInProduction, "version" | "from">[],
  now: Date,
  windowDays: number,
  telemetryFrom: UtcDay | null,
): { chart: ChartDay[]; markers: VersionMarker[] } {
  const windowStart = daysBefore(now, windowDays - 1);
  const markers: VersionMarker[] = [];
  for (const version of [...versions].sort((a, b) => a.version - b.version)) {
    if (version.from < windowStart) continue;
    const same = markers.find((marker) => marker.day === version.from);
    if (same) same.versions.push(version.version);
    else markers.push({ day: version.from, versions: [version.version] });
  }
  const starts = [telemetryFrom, days[0]?.day, markers[0]?.day].filter((day): day is UtcDay => day != null && day >= windowStart);
  const first = starts.length === 0 ? windowStart : starts.reduce((a, b) => (a < b ? a : b));
  const byDay = new Map(days.map((row) => [row.day, row]));
  const chart: ChartDay[] = [];
  for (let back = windowDays - 1; back >= 0; back--) {
    const day = daysBefore(now, back);
    if (day < first) continue;
    const row = byDay.get(day);
    chart.push({ day, proactive: row?.proactive ?? 0, typed: row?.slash ?? 0, nested: row?.nested ?? 0 });
  }
  return { chart, markers };
}

/** Whether any telemetry ever reached the team, and the first day of it from `since` on (null with none since). */
async function telemetrySince(db: Db, teamId: TeamId, since: UtcDay): Promise<{ connected: boolean; firstDay: UtcDay | null }> {
  const [row] = await db
    .select({
      any: sql<boolean>`count(*) > 0`,
      // As text: a date column read by a driver becomes a Date at local midnight.
      firstDay: sql<UtcDay | null>`(min(${telemetryDays.day}) filter (where ${telemetryDays.day} >= ${since}))::text`,
    })
    .from(telemetryDays)
    .where(eq(telemetryDays.teamId, teamId));
  return { connected: row?.any ?? false, firstDay: row?.firstDay ?? null };
}

/** One skill on the activation page: what production says beside what the latest evaluation measured. */
export interface ProductionBesideRecall {
  name: string;
  proactive: number;
  typed: number;
  nested: number;
  /** Chosen by the model among the team's prompts, with its interval; null with no prompts. */
  chosen: Rate | null;
  typedOnly: boolean;
  /** Recall in the latest finished run, with the case-runs it rests on; null where the run expected it nowhere. */
  recall: { recall: number | null; expected: number } | null;
}

/**
 * Every skill activated in production or expected by the latest run, most activated first: a skill
 * the evaluation finds but people must type, or one the model chooses that no prompt set covers,
 * shows up here. Pure.
 */
export function productionBesideRecall(
  usage: {
    skills: readonly {
      name: string;
      activations: { proactive: number; slash: number; nested: number };
      typedOnly: boolean;
    }[];
    prompts: number;
  },
  perSkill: Readonly<Record<string, { expected: number; recall: number | null }>>,
): ProductionBesideRecall[] {
  const used = new Map(usage.skills.map((skill) => [skill.name, skill]));
  const activated = usage.skills.filter((skill) => skill.activations.proactive + skill.activations.slash + skill.activations.nested > 0);
  const names = new Set([...activated.map((skill) => skill.name), ...Object.keys(perSkill)]);
  return [...names]
    .map((name) => {
      const skill = used.get(name);
      const measured = perSkill[name];
      return {
        name,
        proactive: skill?.activations.proactive ?? 0,
        typed: skill?.activations.slash ?? 0,
        nested: skill?.activations.nested ?? 0,
        // Never activated is 0 of the prompts once there are prompts to count.
        chosen: chosenRate(skill?.activations.proactive ?? 0, usage.prompts),
        typedOnly: skill?.typedOnly ?? false,
        recall: measured ? { recall: measured.recall, expected: measured.expected } : null,
      };
    })
    .sort((a, b) => b.proactive + b.typed + b.nested - (a.proactive + a.typed + a.nested) || (a.name < b.name ? -1 : 1));
}
