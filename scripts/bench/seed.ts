// The bench's data, written before the server starts (the embedded database has one owner at a time).
import { sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import type { App } from "../../lib/contracts/app";
import { createApp } from "../../lib/root/app";
import { syncWorkspace } from "../../lib/skills/sync";
import type { Tree } from "../../lib/skills/tree";
import { ensureTeam, type TeamId } from "../../lib/teams/teams";
import { rollupBackfillStatements } from "../../tests/helpers/migration-sql";
import { activationHistory } from "./telemetry";

/**
 * Teams: two of 100 skills with 1,000 and 1,000,000 views and observations, one of 10,000 skills,
 * one to sync into; two of 100 skills with 1,000 and 1,000,000 activations from telemetry, and one
 * that receives telemetry while the bench measures it.
 */
export const TEAM = {
  thousand: "rows-1k",
  million: "rows-1m",
  large: "skills-10k",
  syncTarget: "sync-target",
  activations1k: "activations-1k",
  activations1m: "activations-1m",
  ingest: "otlp-ingest",
} as const;
export const SMALL_CATALOG = 100;
export const LARGE_CATALOG = 10_000;

/** `count` skills named `<prefix>-00000` on, with bodies of varied length as real skills have: 1 to 12 KB, or 0.2 to 2 KB when `small`. */
export function skillTree(count: number, options: { prefix?: string; small?: boolean } = {}): Tree {
  const prefix = options.prefix ?? "skill";
  const lines = options.small ? (i: number) => 3 + (i % 12) * 3 : (i: number) => 16 + (i % 12) * 16;
  const files = Array.from({ length: count }, (_, i) => {
    const name = `${prefix}-${String(i).padStart(5, "0")}`;
    const body = `# ${name}\n\n${"1. A step of the procedure, written out as people write them.\n".repeat(lines(i))}`;
    return {
      path: `${name}/SKILL.md`,
      content: Buffer.from(
        `---\nname: ${name}\ndescription: Handles task family ${i} end to end. Use when family ${i} work comes up.\n---\n${body}`,
      ),
      executable: false,
    };
  });
  return { files, others: [] };
}

/** What to write: the catalogs, views and observations the other rows read; the telemetry rows' activations. */
export interface SeedParts {
  views: boolean;
  telemetry: boolean;
  /** The 10,000-skill catalog alone (the views write it too). */
  largeCatalog: boolean;
}

export async function seed(database: Database, log: (line: string) => void, parts: SeedParts): Promise<void> {
  await database.migrate();
  const app = createApp({ database, builtinSkillsDir: "skills" });
  try {
    const teams = new Map<string, TeamId>();
    for (const slug of Object.values(TEAM)) teams.set(slug, (await ensureTeam(app.db, slug)).id);
    const id = (slug: string) => teams.get(slug) as TeamId;
    if (parts.views) await viewHistory(app, id, log);
    else if (parts.largeCatalog) await syncWorkspace(app.db, app.catalogs, id(TEAM.large), skillTree(LARGE_CATALOG));
    if (parts.telemetry) {
      for (const slug of [TEAM.activations1k, TEAM.activations1m]) {
        await syncWorkspace(app.db, app.catalogs, id(slug), skillTree(SMALL_CATALOG));
      }
      const start = Date.now();
      await activationHistory(app.db, id(TEAM.activations1k), 1_000);
      await activationHistory(app.db, id(TEAM.activations1m), 1_000_000);
      log(`ingested 1,001,000 activations with their rollups in ${seconds(start)}`);
    }
    // What autovacuum would do in the middle of the first rows measured, done before them: the
    // tables just written are vacuumed and their statistics taken, as on a database that has run a while.
    const start = Date.now();
    await app.db.execute(sql`vacuum analyze`);
    log(`vacuumed and analyzed in ${seconds(start)}`);
  } finally {
    await app.close();
  }
}

async function viewHistory(app: App, id: (slug: string) => TeamId, log: (line: string) => void) {
  let start = Date.now();
  for (const slug of [TEAM.thousand, TEAM.million]) await syncWorkspace(app.db, app.catalogs, id(slug), skillTree(SMALL_CATALOG));
  await syncWorkspace(app.db, app.catalogs, id(TEAM.large), skillTree(LARGE_CATALOG));
  log(`synced ${2 * SMALL_CATALOG + LARGE_CATALOG} skills in ${seconds(start)}`);
  start = Date.now();
  await history(app.db, id(TEAM.thousand), 1_000);
  await history(app.db, id(TEAM.million), 1_000_000);
  await backfillRollups(app.db);
  log(`wrote 1,001,000 views and 1,001,000 observations with their rollups in ${seconds(start)}`);
}

/**
 * Views as agents make them: sessions of five loads of related skills (20 families of 5), spread
 * over 45 days; observations over 60 days, one in three a success.
 */
async function history(db: Database["db"], teamId: TeamId, rows: number): Promise<void> {
  await db.execute(sql`
    insert into skill_views (team_id, skill_name, source, version, session_id, viewed_at)
    select ${teamId}, 'skill-' || lpad(((g / 5 % 20) * 5 + g % 5)::text, 5, '0'), 'file', 1, 's' || (g / 5),
           now() - (g / 5 % 45) * interval '1 day' - (g % 5) * interval '1 minute'
    from generate_series(0, ${rows - 1}) g`);
  await db.execute(sql`
    insert into observations (team_id, skill_name, version, task, category, outcome, created_at)
    select ${teamId}, 'skill-' || lpad((g % 100)::text, 5, '0'), 1, 'task ' || g, 'bench', (array['success','failure','partial'])[1 + g % 3],
           now() - (g % 60) * interval '1 day'
    from generate_series(0, ${rows - 1}) g`);
}

/** The rollups of history written in bulk, by the same statements the migration that made them backfills with. */
async function backfillRollups(db: Database["db"]): Promise<void> {
  for (const statement of rollupBackfillStatements()) {
    await db.execute(sql.raw(statement));
  }
}

function seconds(since: number): string {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}
