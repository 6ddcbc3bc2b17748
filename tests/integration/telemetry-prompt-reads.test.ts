import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { rowsOf } from "@/db/rows";
import type { Mapped, TelemetryEvent } from "@/lib/telemetry/events";
import { ingestTelemetry } from "@/lib/telemetry/ingest";
import { useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";

/**
 * Each batch reads back every event of the prompts it added to, and their settled rows, under the
 * team's lock, so what those reads cost is what every batch of the team waits on (docs/telemetry.md,
 * "Attribution"). They must find a prompt by its key (session and prompt id: prompt ids repeat
 * across sessions, an agent's counter or the bench's exporters), whatever the planner believes of
 * the team's size. Read by time or by team instead, a batch read every row of the team: 12 batches
 * a second on PostgreSQL in the bench.
 */
const OTHER_SESSIONS = 2_000;

/** One prompt of a session: the prompt, an activation and a tool call, as Claude Code sends them. */
function promptBatch(sessionId: string, promptId: string): Mapped {
  const at = new Date();
  const base = { at, sessionId, promptId, person: "ana@example.com" };
  const events: TelemetryEvent[] = [
    { ...base, key: `${sessionId}:1`, sequence: 1, kind: "prompt", text: null },
    {
      ...base,
      key: `${sessionId}:2`,
      sequence: 2,
      kind: "activation",
      skillName: "writing-plans",
      trigger: "proactive",
      skillSource: null,
    },
    { ...base, key: `${sessionId}:3`, sequence: 3, kind: "tool_result", toolName: "Bash", success: false, durationMs: 5, error: null },
  ];
  return { events, ignored: 0, refused: { count: 0, reasons: [] } };
}

describe.each(testDbKinds)("reading a batch's prompts back (%s)", (kind) => {
  const t = useTestApp(kind);

  it("reads only the events of the batch's own prompt, however many sessions used its prompt id", async () => {
    const team = t.alpha.team.id;
    /** `count` sessions of a team that each used prompt id `prompt-1`: their events and settled rows. */
    const sessions = async (teamId: number, prefix: string, count: number) => {
      await t.app.db.execute(sql`
        insert into telemetry_events (team_id, event_key, kind, at, session_id, prompt_id, skill_name, trigger, person)
        select ${teamId}::int, ${prefix} || g, 'activation', now() - g * interval '1 second', ${prefix} || g, 'prompt-1',
               'writing-plans', 'proactive', 'bo@example.com'
        from generate_series(1, ${count}::int) g`);
      await t.app.db.execute(sql`
        insert into production_prompts (team_id, session_id, prompt_id, skill_name, loaded, day, at, activations, tool_calls,
                                        tool_failures, rejections, cost_usd, tokens, prompt_ms, failing)
        select ${teamId}::int, ${prefix} || g, 'prompt-1', 'writing-plans', true, current_date, now(), 1, 0, 0, 0, 0, 0, 0, '[]'
        from generate_series(1, ${count}::int) g`);
    };
    // Statistics taken while only another team had telemetry, then this team's first hour: the
    // planner believes this team has next to no rows, as it did in the bench.
    await sessions(t.beta.team.id, "beta-", OTHER_SESSIONS);
    await t.app.db.execute(sql`analyze telemetry_events, production_prompts`);
    await sessions(team, "other-", OTHER_SESSIONS);
    // The prompt and its failed tool call first, then the activation before the call (by sequence),
    // which moves the call from "no skill" to the skill: the second batch reads the prompt's stored
    // events and its settled row, and deletes that row.
    const [prompt, activation, toolCall] = promptBatch("mine", "prompt-1").events;
    const batch = (events: TelemetryEvent[]): Mapped => ({ events, ignored: 0, refused: { count: 0, reasons: [] } });
    await ingestTelemetry(t.app.db, team, batch([prompt!, toolCall!]), new Set());
    const mine = sql`select skill_name as skill, tool_calls as calls, tool_failures as failures from production_prompts
                     where session_id = 'mine' order by skill_name`;
    expect(rowsOf(await t.app.db.execute(mine))).toEqual([{ skill: "", calls: 1, failures: 1 }]);
    // Rows of the raw events and of settled prompts read in this transaction, by scans and index
    // fetches (PGlite keeps counting across transactions: what the batch read is the difference).
    const tuplesRead = async (tx: typeof t.app.db) => {
      const [counted] = rowsOf<{ tuples: number | string }>(
        await tx.execute(sql`
          select coalesce(sum(seq_tup_read + coalesce(idx_tup_fetch, 0)), 0) as tuples
          from pg_stat_xact_user_tables where relname like 'telemetry_events%' or relname = 'production_prompts'`),
      );
      return Number(counted?.tuples);
    };
    const read = await t.app.db.transaction(async (tx) => {
      const before = await tuplesRead(tx);
      await ingestTelemetry(tx, team, batch([activation!]), new Set());
      return (await tuplesRead(tx)) - before;
    });
    // The prompt's two stored events and its one settled row; none of the other sessions' events or rows.
    expect(read).toBe(3);
    expect(rowsOf(await t.app.db.execute(mine))).toEqual([{ skill: "writing-plans", calls: 1, failures: 1 }]);
    // The delete took the prompt's old row and no other session's of either team.
    const others = await t.app.db.execute(sql`
      select team_id as team, count(*)::int as rows from production_prompts where session_id <> 'mine' group by team_id order by team_id`);
    expect(rowsOf(others)).toEqual([
      { team, rows: OTHER_SESSIONS },
      { team: t.beta.team.id, rows: OTHER_SESSIONS },
    ]);
  });
});
