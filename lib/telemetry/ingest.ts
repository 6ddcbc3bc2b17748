import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { rowsOf } from "@/db/rows";
import type { TeamId } from "../teams/teams";
import { utcDay } from "../usage/rollups";
import type { Mapped, TelemetryEvent } from "./events";
import { promptEventsJson, promptEventsRead, promptSpan, settlePrompts, type EventRow, type StaticNames } from "./settle";

/** What one batch did: how many of its events were new to Skillgate (the rest were sent before). */
export interface Ingested {
  added: number;
}

/** The advisory lock (with the team's id) that takes a team's batches one at a time. */
const TELEMETRY_LOCK = 7_310_026;

/**
 * One statement writes a batch's events and every rollup they change (db/schema/telemetry.ts).
 * An event already stored (an exporter's retry, or a batch two instances received) inserts
 * nothing, and only inserted events are counted, so a batch sent twice counts once however the
 * two copies race. Prompt texts are stored only while the team's `store_prompts` is on, read in
 * the same statement so a lead turning it off stops the next batch's texts. An event older than
 * the team's retention is not stored: it would be trimmed at once. People are counted on the last
 * day they activated each skill (the day rollup's `people`), so reading "people in 30 days" costs
 * the same row per skill per day as the activations. Records and ignored records count on the day they arrived;
 * activations and prompts on the day they happened.
 */
export async function ingestTelemetry(db: Db, teamId: TeamId, mapped: Mapped, statics: StaticNames, now = new Date()): Promise<Ingested> {
  const records = mapped.events.length + mapped.ignored + mapped.refused.count;
  return db.transaction(async (tx) => {
    // One batch of a team at a time: the people rollups read each person's last day before the
    // batch, which a batch of the same team committing in between would make stale; and a prompt
    // is settled from all its events, which a batch committing in between could leave out.
    await tx.execute(sql`select pg_advisory_xact_lock(${TELEMETRY_LOCK}, ${teamId}::int)`);
    const result = await tx.execute(batchStatement(teamId, mapped, records, now));
    const [row] = rowsOf<{ added: number; prompt_events: EventRow[] | null }>(result);
    await settlePrompts(tx, teamId, row?.prompt_events ?? [], statics);
    return { added: Number(row?.added ?? 0) };
  });
}

/** The statement of one batch: the events, then every rollup of the rows it inserted. */
function batchStatement(teamId: TeamId, mapped: Mapped, records: number, now: Date) {
  return sql`
    with incoming as (
      select key, kind, to_timestamp(at / 1000.0) as at, session, prompt, seq, skill, trig, source, person, body,
             tool, success, ms, error, cost, tokens
      from json_to_recordset(${eventRows(mapped.events)}::json)
        as r(key text, kind text, at double precision, session text, prompt text, seq bigint, skill text, trig text, source text,
             person text, body text, tool text, success boolean, ms bigint, error text, cost double precision, tokens bigint)
    ),
    inserted as (
      insert into telemetry_events (team_id, event_key, kind, at, session_id, prompt_id, sequence, skill_name, trigger, skill_source,
                                    person, prompt_text, tool_name, success, duration_ms, error_text, cost_usd, tokens)
      select ${teamId}::int, key, kind, at, session, prompt, seq, skill, trig, source, person,
             case when (select store_prompts from teams where id = ${teamId}::int) then body end,
             tool, success, ms,
             -- A tool's error can quote what it worked on, as a prompt does: kept only as prompts are.
             case when (select store_prompts from teams where id = ${teamId}::int) then error end,
             cost, tokens
      from incoming
      -- Past the retention an event's copy would be trimmed, and a copy sent again then counted twice.
      where at >= ${now.toISOString()}::timestamptz - make_interval(days => (select telemetry_days from teams where id = ${teamId}::int))
      order by key
      on conflict do nothing
      returning kind, at, sequence, skill_name, trigger, tool_name, success, error_text, cost_usd, tokens, person, prompt_text,
                session_id, prompt_id
    ),
    ${peopleRollups(teamId)}
    activated as (
      insert into skill_activation_days (team_id, day, skill_name, proactive, slash, nested, people)
      select ${teamId}::int, day, skill_name, sum(proactive), sum(slash), sum(nested), sum(people)
      from (
        select (at at time zone 'UTC')::date as day, skill_name, (trigger = 'proactive')::int as proactive,
               (trigger = 'slash')::int as slash, (trigger = 'nested')::int as nested, 0 as people
        from inserted where kind = 'activation'
        union all
        select day, skill_name, 0, 0, 0, 1 from moved
        union all
        select before, skill_name, 0, 0, 0, -1 from moved where before is not null
      ) counted
      group by day, skill_name
      on conflict (team_id, day, skill_name) do update
        set proactive = skill_activation_days.proactive + excluded.proactive,
            slash = skill_activation_days.slash + excluded.slash,
            nested = skill_activation_days.nested + excluded.nested,
            people = skill_activation_days.people + excluded.people
    ),
    people as (
      insert into skill_activation_people (team_id, day, skill_name, person)
      select distinct ${teamId}::int, (at at time zone 'UTC')::date, skill_name, person
      from inserted where kind = 'activation' and person is not null
      on conflict do nothing
    ),
    days as (
      insert into telemetry_days (team_id, day, records, prompts, ignored)
      select ${teamId}::int, day, sum(records), sum(prompts), sum(ignored)
      from (
        select ${utcDay(now)}::date as day, ${records}::bigint as records, 0 as prompts, ${mapped.ignored}::bigint as ignored
        union all
        select (at at time zone 'UTC')::date, 0, 1, 0 from inserted where kind = 'prompt'
      ) counted
      group by day
      on conflict (team_id, day) do update
        set records = telemetry_days.records + excluded.records,
            prompts = telemetry_days.prompts + excluded.prompts,
            ignored = telemetry_days.ignored + excluded.ignored
    ),
    ${promptEventsRead(teamId, promptSpan(mapped.events))}
    select (select count(*)::int from inserted) as added, ${promptEventsJson(teamId)} as prompt_events`;
}

/**
 * People by the last day they activated each skill: `moved` holds the people whose last day this
 * batch moves (read before the batch, so under the team's lock); the day rollup takes each out of
 * their old day's `people` and into their new one's.
 */
function peopleRollups(teamId: TeamId) {
  return sql`
    seen as (
      select skill_name, person, max((at at time zone 'UTC')::date) as day
      from inserted where kind = 'activation' and person is not null
      group by skill_name, person
    ),
    moved as (
      select seen.skill_name, seen.day, known.last_day as before
      from seen
      left join skill_activation_last_days known
        on known.team_id = ${teamId}::int and known.skill_name = seen.skill_name and known.person = seen.person
      where known.last_day is null or seen.day > known.last_day
    ),
    last_days as (
      insert into skill_activation_last_days (team_id, skill_name, person, last_day)
      select ${teamId}::int, skill_name, person, day from seen
      on conflict (team_id, skill_name, person) do update
        set last_day = greatest(skill_activation_last_days.last_day, excluded.last_day)
    ),
  `;
}

/** The events as one JSON parameter, read back by the server as rows (as views are: lib/usage/rollups.ts). */
function eventRows(events: readonly TelemetryEvent[]): string {
  return JSON.stringify(
    events.map((event) => ({
      key: event.key,
      kind: event.kind,
      at: event.at.getTime(),
      session: event.sessionId,
      prompt: event.promptId,
      seq: event.sequence,
      skill: event.kind === "activation" || event.kind === "api_request" ? event.skillName : null,
      trig: event.kind === "activation" ? event.trigger : null,
      source: event.kind === "activation" ? event.skillSource : null,
      person: event.person,
      body: event.kind === "prompt" ? event.text : null,
      tool: event.kind === "tool_result" || event.kind === "tool_rejection" ? event.toolName : null,
      success: event.kind === "tool_result" ? event.success : null,
      ms: event.kind === "tool_result" || event.kind === "api_request" ? event.durationMs : null,
      error: event.kind === "tool_result" ? event.error : null,
      cost: event.kind === "api_request" ? event.costUsd : null,
      tokens: event.kind === "api_request" ? event.tokens : null,
    })),
  );
}
