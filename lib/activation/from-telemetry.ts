import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { rowsOf } from "@/db/rows";
import { AppError } from "../errors";
import type { Catalog } from "../skills/catalog";
import type { TeamId } from "../teams/teams";
import { parsePromptSet } from "./prompt-sets";
import type { PromptSet } from "./prompt-set-input";

/**
 * A prompt set made of the prompts the team's people really wrote (docs/telemetry.md#prompt-sets-from-production): each stored prompt
 * expects the skills its agent activated for it, chosen by the model or typed; a prompt that
 * activated nothing expects nothing. So an activation run measures the catalog on production's
 * prompts, with production's choices as the answer key.
 *
 * - Only prompts whose text was kept (the team's `storePrompts`), within the raw events' retention.
 * - The same text asked several times is one case, expecting every skill any of its asks activated.
 * - Skills the catalog does not hold (or whose names the agent hid) are left out: no run can load them.
 * - A prompt that typed `/name` is kept without that command: what follows is what the person
 *   wanted; a bare `/name` says nothing about wording and is left out.
 * - Ids are `P1…` for prompts that activated skills (real paraphrases of the need) and `G1…`
 *   for those that activated none, newest first.
 */

export interface FromTelemetryRequest {
  name: string;
  days: number;
  limit: number;
}

interface AskedPrompt {
  text: string;
  skills: string[];
  typed: string[];
}

export async function promptSetFromTelemetry(
  db: Db,
  catalog: Catalog,
  teamId: TeamId,
  request: FromTelemetryRequest,
  now = new Date(),
): Promise<PromptSet> {
  const asked = await askedPrompts(db, teamId, request, now);
  const cases: PromptSet["cases"] = [];
  let withSkills = 0;
  let withNone = 0;
  for (const prompt of asked) {
    if (cases.length >= request.limit) break;
    const text = withoutSlashCommand(prompt.text, prompt.typed);
    if (text === "") continue;
    const expected = prompt.skills.filter((name) => catalog.named.has(name)).sort();
    if (expected.length > 0) cases.push({ id: `P${++withSkills}`, prompt: text, expected: expected.slice(0, 20), expectNone: false });
    else if (prompt.skills.length === 0) cases.push({ id: `G${++withNone}`, prompt: text, expected: [], expectNone: true });
  }
  if (cases.length === 0) {
    throw new AppError(
      "Unprocessable",
      `no stored prompts in the last ${request.days} day(s): turn on "store prompts" in the team's settings and have agents send prompt texts (Claude Code: OTEL_LOG_USER_PROMPTS=1)`,
    );
  }
  return parsePromptSet({ name: request.name, cases });
}

/** Distinct prompt texts of the window, newest first, with the skills activated for them (proactive or typed). */
async function askedPrompts(db: Db, teamId: TeamId, { days, limit }: FromTelemetryRequest, now: Date): Promise<AskedPrompt[]> {
  const since = new Date(now.getTime() - days * 86_400_000).toISOString();
  const result = await db.execute(sql`
    select p.prompt_text as text,
           coalesce(array_agg(distinct a.skill_name) filter (where a.skill_name is not null), '{}') as skills,
           coalesce(array_agg(distinct a.skill_name) filter (where a.trigger = 'slash'), '{}') as typed
    from telemetry_events p
    left join telemetry_events a
      -- A prompt is its session and prompt id (docs/telemetry.md, "Attribution"); a missing session
      -- matches a missing session, in a condition a hash join can take.
      on a.team_id = p.team_id and coalesce(a.session_id, '') = coalesce(p.session_id, '') and a.prompt_id = p.prompt_id
        and a.kind = 'activation' and a.trigger in ('proactive', 'slash')
        -- A prompt's events lie within a day of each other (lib/telemetry/settle.ts, PROMPT_SPAN_MS):
        -- older days' partitions hold none of these prompts' activations.
        and a.at >= ${since}::timestamptz - interval '1 day'
    where p.team_id = ${teamId}::int and p.kind = 'prompt' and p.prompt_text is not null and p.prompt_id is not null
      and p.at >= ${since}::timestamptz
    group by p.prompt_text
    order by max(p.at) desc, p.prompt_text
    limit ${limit * 2}::int`);
  return rowsOf<AskedPrompt>(result).map((row) => ({
    text: row.text,
    skills: arrayOf(row.skills),
    typed: arrayOf(row.typed),
  }));
}

/** PGlite and node-postgres give text[] as an array; a driver that does not, as `{a,b}`. */
function arrayOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === "string" && value.startsWith("{")) return value.slice(1, -1).split(",").filter(Boolean);
  return [];
}

function withoutSlashCommand(text: string, typed: readonly string[]): string {
  const trimmed = text.trim();
  const command = /^\/([a-z0-9-]+)(?:\s+|$)/.exec(trimmed);
  if (command && typed.includes(command[1] ?? "")) return trimmed.slice(command[0].length).trim();
  return trimmed.slice(0, 10_000);
}
