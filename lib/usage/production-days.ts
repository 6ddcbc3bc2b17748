import { sql, type SQL } from "drizzle-orm";

/**
 * The rollup `production_days` (db/schema/telemetry.ts): the prompts of `production_prompts` added
 * up per day, part and prompt-time bucket. What settling writes and reading adds up share these
 * pieces, and the migration that filled the table from history spells them the same way
 * (db/migrations/0036_production_days.sql).
 */

/** Each bucket's upper bound is 2% above its lower: `ceil(ln(ms) / ln(1.02))`, 0 for 0 and 1 ms. */
export const BUCKET_GROWTH = 1.02;

/** The bucket of a prompt time in ms (an SQL expression of it). */
export function bucketOf(ms: SQL): SQL {
  return sql`greatest(0, ceil(ln(greatest(${ms}, 1)::float8) / ln(${BUCKET_GROWTH}::float8)))::int`;
}

/** The parts that are no skill; skill names never start with a space. What ran before a prompt's first skill was loaded. */
export const BEFORE_PART = " before";
/** Prompts that loaded no skill: the baseline. */
export const NONE_PART = " none";
/** Each prompt once, its parts summed. */
export const TOTAL_PART = " total";

/** The part a `production_prompts` row adds to, from its skill name and whether its prompt loaded any. */
export function partOf(skillName: SQL, loaded: SQL): SQL {
  return sql`case when ${skillName} <> '' then ${skillName} when ${loaded} then ${BEFORE_PART}::text else ${NONE_PART}::text end`;
}

/** Prompts of one time bucket: how many, and their times added up. */
export interface TimeBucket {
  bucket: number;
  prompts: number;
  promptMs: number;
}

/**
 * The median prompt time of prompts counted in buckets, as `percentile_cont(0.5)` takes it (the
 * middle prompt, or the mean of the middle two), each prompt's time read as its bucket's mean.
 * Exact when a bucket's prompts took the same time, within the bucket's 2% otherwise; null with
 * no prompt. Pure.
 */
export function medianOfBuckets(buckets: readonly TimeBucket[]): number | null {
  const counted = buckets.filter((b) => b.prompts > 0).sort((x, y) => x.bucket - y.bucket);
  const total = counted.reduce((sum, b) => sum + b.prompts, 0);
  if (total === 0) return null;
  // The 0-based positions of the middle prompt, or of the middle two.
  const low = Math.floor((total - 1) / 2);
  const high = Math.floor(total / 2);
  const timeAt = (position: number): number => {
    let seen = 0;
    for (const b of counted) {
      seen += b.prompts;
      if (position < seen) return b.promptMs / b.prompts;
    }
    throw new Error(`no prompt at position ${position} of ${total}`);
  };
  return Math.round((timeAt(low) + timeAt(high)) / 2);
}
