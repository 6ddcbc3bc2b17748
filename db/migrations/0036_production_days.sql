CREATE TABLE "production_days" (
	"team_id" integer NOT NULL,
	"day" date NOT NULL,
	"part" text NOT NULL,
	"bucket" integer NOT NULL,
	"prompts" integer NOT NULL,
	"tool_calls" bigint NOT NULL,
	"tool_failures" bigint NOT NULL,
	"rejections" bigint NOT NULL,
	"cost_usd" double precision NOT NULL,
	"tokens" bigint NOT NULL,
	"prompt_ms" bigint NOT NULL,
	CONSTRAINT "production_days_team_id_day_part_bucket_pk" PRIMARY KEY("team_id","day","part","bucket")
);
--> statement-breakpoint
ALTER TABLE "production_days" ADD CONSTRAINT "production_days_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Backfill: the production already settled, added up as settling adds it up (lib/telemetry/settle.ts; the bucket as lib/usage/production-days.ts makes it).
INSERT INTO "production_days" ("team_id", "day", "part", "bucket", "prompts", "tool_calls", "tool_failures", "rejections", "cost_usd", "tokens", "prompt_ms")
SELECT team_id, day, part, bucket, count(*), sum(tool_calls), sum(tool_failures), sum(rejections), sum(cost_usd), sum(tokens), sum(prompt_ms)
FROM (
  SELECT team_id, day, CASE WHEN skill_name <> '' THEN skill_name WHEN loaded THEN ' before' ELSE ' none' END AS part,
         greatest(0, ceil(ln(greatest(prompt_ms, 1)::float8) / ln(1.02::float8)))::int AS bucket,
         tool_calls, tool_failures, rejections, cost_usd, tokens, prompt_ms
  FROM production_prompts
  UNION ALL
  SELECT team_id, min(day), ' total',
         greatest(0, ceil(ln(greatest(max(prompt_ms), 1)::float8) / ln(1.02::float8)))::int,
         sum(tool_calls), sum(tool_failures), sum(rejections), sum(cost_usd), sum(tokens), max(prompt_ms)
  FROM production_prompts
  GROUP BY team_id, session_id, prompt_id
) settled
GROUP BY team_id, day, part, bucket;
