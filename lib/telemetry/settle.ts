import { sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { TeamId } from "../teams/teams";
import { bucketOf, partOf, TOTAL_PART } from "../usage/production-days";
import { utcDay } from "../usage/rollups";
import { attributePrompt, NO_SKILL, type PromptFigures, type StoredEvent } from "./attribution";

/**
 * A prompt's production figures, settled again each time a batch brings events of it
 * (docs/telemetry.md, "Attribution"): its stored events are read back whole, attributed
 * (./attribution.ts), and its rows in `production_prompts` replaced. Order of arrival does not
 * matter: a tool result that came a batch before its skill's activation moves to that skill when
 * the activation arrives. A prompt whose tools failed while a skill was loaded becomes one
 * observation of that skill (source `telemetry`), unless a lead muted every tool that failed.
 * Runs inside the batch's transaction, under the team's lock: the batch's own statement reads the
 * prompts back (`promptEventsRead`), and one more statement writes what settling them changes. Each
 * statement under the lock is a round trip that holds every other batch of the team waiting.
 */

interface PromptKey {
  sessionId: string;
  promptId: string;
}

/** Names that are skills of every team (built-in and global): their one version is v1. */
export type StaticNames = ReadonlySet<string>;

/** A stored event of a prompt the batch added to, with the version then live of the skill it names. */
export interface EventRow {
  session_id: string;
  prompt_id: string;
  kind: StoredEvent["kind"];
  at: string | Date;
  sequence: string | number | null;
  skill_name: string | null;
  tool_name: string | null;
  success: boolean | null;
  error_text: string | null;
  cost_usd: number | null;
  tokens: string | number | null;
  person: string | null;
  prompt_text: string | null;
  /** Of the skill it names (an activation, an API request), the version live when it happened; null for no skill or a name not the team's. */
  version: number | null;
}

/** A prompt's events lie within a day of the batch's own: reading only those days' partitions spares the rest. */
const PROMPT_SPAN_MS = 86_400_000;

/**
 * The times a batch's prompts' events are read between: a day either side of the batch's events
 * that belong to a prompt; null when none does. Given to the statement as values, so that the
 * planner keeps only those days' partitions (read from the batch's rows in SQL, it kept them all,
 * and each prompt's key was looked up in every partition).
 */
export function promptSpan(events: readonly { at: Date; sessionId: string | null; promptId: string | null }[]): PromptSpan | null {
  let first = Infinity;
  let last = -Infinity;
  for (const event of events) {
    if (event.sessionId === null || event.promptId === null) continue;
    first = Math.min(first, event.at.getTime());
    last = Math.max(last, event.at.getTime());
  }
  return first === Infinity ? null : { first: new Date(first - PROMPT_SPAN_MS), last: new Date(last + PROMPT_SPAN_MS) };
}
export interface PromptSpan {
  first: Date;
  last: Date;
}

/**
 * The CTEs that follow the batch's `inserted` (lib/telemetry/ingest.ts) and read back whole every
 * prompt it added to: `prompt_events`. Only prompts the batch added to: a copy sent again adds
 * nothing, and settles nothing. A statement reads the tables as they were before it, so the
 * batch's own events come from `inserted` and the rest from the table; none is in both. With no
 * span (no event of the batch belongs to a prompt), no stored event is read.
 *
 * Prompts are looked up by their key alone (session and prompt id, indexed on their own) and the
 * team checked after, behind `offset 0`, which keeps the planner from pushing the check into the
 * lookup; settling reads the prompts' rows the same way. Joined whole, the planner read the team's
 * events of the span by time, and every settled prompt of the team. With the team in the lookup, it
 * took any index led by the team whenever its statistics said the team had few rows, as they do for
 * a team new since the last analyze: each batch read all of the team's rows, more as the day went
 * on (docs/telemetry.md, "Attribution"; tests/integration/telemetry-prompt-reads.test.ts).
 */
export function promptEventsRead(teamId: TeamId, span: PromptSpan | null): SQL {
  const within = span ? sql`e.at between ${span.first.toISOString()}::timestamptz and ${span.last.toISOString()}::timestamptz` : sql`false`;
  return sql`
    touched as (
      select distinct session_id, prompt_id from inserted where session_id is not null and prompt_id is not null
    ),
    prompt_events as (
      -- Prompt by prompt, by its key alone, the team checked past the fence (see above).
      select ${eventColumns("e")}
      from touched k
      cross join lateral (
        select * from telemetry_events e where e.session_id = k.session_id and e.prompt_id = k.prompt_id and ${within} offset 0
      ) e
      where e.team_id = ${teamId}::int
      union all
      select ${eventColumns("i")} from inserted i join touched k on i.session_id = k.session_id and i.prompt_id = k.prompt_id
    )`;
}

/** What settling reads of each event: `EventRow`'s fields but the version. */
const EVENT_COLUMNS = [
  "session_id",
  "prompt_id",
  "kind",
  "at",
  "sequence",
  "skill_name",
  "tool_name",
  "success",
  "error_text",
  "cost_usd",
  "tokens",
  "person",
  "prompt_text",
] as const satisfies readonly (keyof EventRow)[];

const eventColumns = (table: string) => sql.raw(EVENT_COLUMNS.map((column) => `${table}.${column}`).join(", "));

/** The prompts' events as one JSON array of `EventRow`s, each with its skill's version: the batch statement's last column. */
export function promptEventsJson(teamId: TeamId): SQL {
  const fields = sql.raw(EVENT_COLUMNS.map((column) => `'${column}', pe.${column}`).join(", "));
  return sql`(select json_agg(json_build_object(${fields},
      'version', case when pe.skill_name is not null then ${versionAt(teamId, sql`pe.skill_name`, sql`pe.at`)} end))
    from prompt_events pe)`;
}

export async function settlePrompts(tx: Db, teamId: TeamId, events: readonly EventRow[], statics: StaticNames): Promise<void> {
  const byPrompt = new Map<string, { key: PromptKey; rows: EventRow[] }>();
  for (const row of events) {
    const id = JSON.stringify([row.session_id, row.prompt_id]);
    const prompt = byPrompt.get(id) ?? { key: { sessionId: row.session_id, promptId: row.prompt_id }, rows: [] };
    prompt.rows.push(row);
    byPrompt.set(id, prompt);
  }
  if (byPrompt.size === 0) return;
  const settled = [...byPrompt.values()].map(({ key, rows }) => ({
    key,
    text: rows.find((row) => row.kind === "prompt" && row.prompt_text !== null)?.prompt_text ?? null,
    figures: attributePrompt(rows.map(storedEvent)),
  }));
  const keys = JSON.stringify(settled.map(({ key }) => ({ s: key.sessionId, p: key.promptId })));
  await tx.execute(writeStatement(teamId, keys, settled, versionsOf(events, statics)));
}

function storedEvent(row: EventRow): StoredEvent {
  return {
    kind: row.kind,
    at: new Date(row.at),
    sequence: row.sequence === null ? null : Number(row.sequence),
    skillName: row.skill_name,
    toolName: row.tool_name,
    success: row.success,
    errorText: row.error_text,
    costUsd: row.cost_usd === null ? null : Number(row.cost_usd),
    tokens: row.tokens === null ? null : Number(row.tokens),
    person: row.person,
  };
}

interface Settled {
  key: PromptKey;
  text: string | null;
  figures: PromptFigures;
}

/**
 * The version agents got of skill `name` when it was loaded at `at`: the version served now (a
 * learned skill's pin, else its latest; a file skill's latest), or, for a prompt from before that
 * version was made (a batch that arrived late), the newest version made by then. Null for a name
 * the team's catalog does not hold (built-in and global skills: `versionsOf`).
 */
function versionAt(teamId: TeamId, name: SQL, at: SQL): SQL {
  return sql`coalesce(
    (select least(ws.current_version, coalesce(
        (select max(v.version) from workspace_skill_versions v
         where v.team_id = ws.team_id and v.name = ws.name and v.created_at <= ${at}), ws.current_version))
     from workspace_skills ws where ws.team_id = ${teamId}::int and ws.name = ${name}),
    (select least(coalesce(ls.pinned_version, ls.current_version), coalesce(
        (select max(v.version) from learned_skill_versions v
         where v.skill_id = ls.id and v.created_at <= ${at}), ls.current_version))
     from learned_skills ls where ls.team_id = ${teamId}::int and ls.name = ${name} and ls.status = 'active'))`;
}

/** Each skill's version by when it was named (a part's `from` is an event that names it); built-in and global skills have v1. */
function versionsOf(events: readonly EventRow[], statics: StaticNames): Map<string, number> {
  const found = new Map<string, number>();
  for (const row of events) {
    if (row.skill_name === null || row.skill_name === NO_SKILL) continue;
    const version = row.version ?? (statics.has(row.skill_name) ? 1 : null);
    if (version !== null) found.set(versionKey(row.skill_name, new Date(row.at).getTime()), Number(version));
  }
  return found;
}

const versionKey = (name: string, at: number) => `${at}:${name}`;

/** Each prompt's parts as `production_prompts` rows. */
function productionRows(settled: readonly Settled[], versions: Map<string, number>) {
  return settled.flatMap(({ key, figures }) =>
    figures.parts.map((part) => ({
      s: key.sessionId,
      p: key.promptId,
      skill: part.skillName,
      version: versions.get(versionKey(part.skillName, part.from.getTime())) ?? null,
      loaded: figures.loaded,
      day: utcDay(figures.at),
      at: figures.at.getTime(),
      person: figures.person,
      activations: part.activations,
      calls: part.toolCalls,
      failures: part.toolFailures,
      rejections: part.rejections,
      cost: part.costUsd,
      tokens: part.tokens,
      ms: figures.promptMs,
      failing: part.failing,
    })),
  );
}

/** Each skill whose tools failed in a prompt, with the version then live: a candidate observation (muted tools are left out in SQL). */
function observationRows(settled: readonly Settled[], versions: Map<string, number>) {
  return settled.flatMap(({ key, text, figures }) =>
    figures.parts
      .filter((part) => part.toolFailures > 0 && part.skillName !== NO_SKILL)
      .flatMap((part) => {
        const version = versions.get(versionKey(part.skillName, part.from.getTime()));
        if (version === undefined) return [];
        return [
          {
            s: key.sessionId,
            p: key.promptId,
            skill: part.skillName,
            version,
            at: part.from.getTime(),
            task: text ?? `A prompt in session ${key.sessionId} (the team does not store prompt texts)`,
            called: part.toolsCalled,
            ms: figures.promptMs,
            failing: part.failing,
          },
        ];
      }),
  );
}

/**
 * One statement: the prompts' old rows out, their settled rows in, the rollup moved by the
 * difference, and an observation per skill per failing prompt. `keys`: the settled prompts as the
 * JSON the read took, `[{s, p}]`.
 */
function writeStatement(teamId: TeamId, keys: string, settled: readonly Settled[], versions: Map<string, number>) {
  const rows = productionRows(settled, versions);
  const observed = observationRows(settled, versions);
  return sql`
    with incoming as (
      select * from json_to_recordset(${JSON.stringify(rows)}::json)
        as r(s text, p text, skill text, version int, loaded boolean, day text, at double precision, person text, activations int,
             calls int, failures int, rejections int, cost double precision, tokens bigint, ms bigint, failing jsonb)
    ),
    ${rollupMoves(teamId, keys)},
    -- A skill the prompt no longer has a part of (its events moved to another): its row goes, found
    -- by the row \`was\` read (deleting by a join on the key, the planner read every settled prompt
    -- of the team: see promptEventsRead).
    cleared as (
      delete from production_prompts
      where ctid = any(array(
        select w.row_id from was w where not exists (select 1 from incoming i where i.s = w.s and i.p = w.p and i.skill = w.skill)))
    ),
    written as (
      insert into production_prompts (team_id, session_id, prompt_id, skill_name, version, loaded, day, at, person, activations,
                                      tool_calls, tool_failures, rejections, cost_usd, tokens, prompt_ms, failing)
      select ${teamId}::int, s, p, skill, version, loaded, day::date, to_timestamp(at / 1000.0), person, activations,
             calls, failures, rejections, cost, tokens, ms, failing
      from incoming
      on conflict (team_id, session_id, prompt_id, skill_name) do update
        set version = excluded.version, loaded = excluded.loaded, day = excluded.day, at = excluded.at, person = excluded.person,
            activations = excluded.activations, tool_calls = excluded.tool_calls, tool_failures = excluded.tool_failures,
            rejections = excluded.rejections, cost_usd = excluded.cost_usd, tokens = excluded.tokens,
            prompt_ms = excluded.prompt_ms, failing = excluded.failing
    ),
    candidates as (
      select o.*, f.tool, f.failures, f.error, f.ord
      from json_to_recordset(${JSON.stringify(observed)}::json)
        as o(s text, p text, skill text, version int, at double precision, task text, called json, ms bigint, failing json)
      cross join lateral rows from (json_to_recordset(o.failing) as (tool text, failures int, error text)) with ordinality as f(tool, failures, error, ord)
      where not exists (
        select 1 from muted_tools m where m.team_id = ${teamId}::int and m.skill_name = o.skill and m.tool_name = f.tool)
    )
    insert into observations (team_id, skill_name, version, task, category, outcome, error_type, duration_ms, tools_called,
                              failed_tool_calls, feedback, session_id, source, prompt_id, created_at)
    select ${teamId}::int, skill, version, min(task), 'production', 'failure', 'tool-failure', min(ms),
           array(select json_array_elements_text(min(called::text)::json)),
           array_agg(tool order by ord),
           string_agg(tool || ' failed ' || failures || (case when failures = 1 then ' time' else ' times' end)
                      || coalesce(': ' || error, ''), '; ' order by ord),
           s, 'telemetry', p, to_timestamp(min(at) / 1000.0)
    from candidates
    group by s, p, skill, version
    on conflict (team_id, skill_name, session_id, prompt_id) where source = 'telemetry' do update
      set failed_tool_calls = excluded.failed_tool_calls, tools_called = excluded.tools_called,
          feedback = excluded.feedback, duration_ms = excluded.duration_ms`;
}

/**
 * The statement's CTEs that move the rollup production_days by what settling changes: each
 * prompt's rows as they were come out, its rows as settled (`incoming`) go in. Every CTE of the
 * statement reads the table as it was before any of them wrote.
 */
function rollupMoves(teamId: TeamId, keys: string): SQL {
  return sql`
    settled_keys as (select distinct s, p from json_to_recordset(${keys}::json) as k(s text, p text)),
    -- Prompt by prompt, by its key alone, as the events are read (promptEventsRead).
    was as (
      select pp.row_id, pp.session_id as s, pp.prompt_id as p, pp.skill_name as skill, pp.day, ${partOf(sql`pp.skill_name`, sql`pp.loaded`)} as part,
             pp.tool_calls as calls, pp.tool_failures as failures, pp.rejections, pp.cost_usd as cost, pp.tokens, pp.prompt_ms as ms
      from settled_keys k
      cross join lateral (
        select pp.ctid as row_id, pp.* from production_prompts pp where pp.session_id = k.s and pp.prompt_id = k.p offset 0
      ) pp
      where pp.team_id = ${teamId}::int
    ),
    settled_rows as (
      select s, p, day::date as day, ${partOf(sql`skill`, sql`loaded`)} as part, calls, failures, rejections, cost, tokens, ms
      from incoming
    ),
    changes as (
      select day, part, ${bucketOf(sql`ms`)} as bucket, -1 as n, -calls::bigint as calls, -failures::bigint as failures,
             -rejections::bigint as rejections, -cost as cost, -tokens as tokens, -ms as ms
      from was
      union all
      select min(day), ${TOTAL_PART}::text, ${bucketOf(sql`max(ms)`)}, -1, -sum(calls), -sum(failures), -sum(rejections), -sum(cost),
             -sum(tokens), -max(ms)
      from was group by s, p
      union all
      select day, part, ${bucketOf(sql`ms`)}, 1, calls, failures, rejections, cost, tokens, ms from settled_rows
      union all
      select min(day), ${TOTAL_PART}::text, ${bucketOf(sql`max(ms)`)}, 1, sum(calls), sum(failures), sum(rejections), sum(cost),
             sum(tokens), max(ms)
      from settled_rows group by s, p
    ),
    rolled as (
      insert into production_days (team_id, day, part, bucket, prompts, tool_calls, tool_failures, rejections, cost_usd, tokens, prompt_ms)
      select ${teamId}::int, day, part, bucket, sum(n), sum(calls), sum(failures), sum(rejections), sum(cost), sum(tokens), sum(ms)
      from changes
      group by day, part, bucket
      -- A prompt settled again with the same figures changes nothing.
      having sum(n) <> 0 or sum(calls) <> 0 or sum(failures) <> 0 or sum(rejections) <> 0 or sum(cost) <> 0 or sum(tokens) <> 0
          or sum(ms) <> 0
      on conflict (team_id, day, part, bucket) do update
        set prompts = production_days.prompts + excluded.prompts, tool_calls = production_days.tool_calls + excluded.tool_calls,
            tool_failures = production_days.tool_failures + excluded.tool_failures,
            rejections = production_days.rejections + excluded.rejections, cost_usd = production_days.cost_usd + excluded.cost_usd,
            tokens = production_days.tokens + excluded.tokens, prompt_ms = production_days.prompt_ms + excluded.prompt_ms
    )`;
}
