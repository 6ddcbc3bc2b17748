-- Written by hand (drizzle-kit cannot say PARTITION BY): raw telemetry events in one partition per
-- UTC day, so retention drops a day's partition instead of deleting its rows (docs/deploy.md,
-- "Telemetry at scale"; lib/telemetry/partitions.ts makes and drops them). The table is converted
-- in place: same columns (copied with LIKE, so any column added before this migration comes along),
-- and the primary key, foreign key and index names db/schema/telemetry.ts and its snapshot know,
-- so db:generate finds nothing to change. Rows are copied once: on a large table this migration
-- takes about as long as copying it.
ALTER TABLE "telemetry_events" RENAME TO "telemetry_events_unpartitioned";--> statement-breakpoint
CREATE TABLE "telemetry_events" (LIKE "telemetry_events_unpartitioned" INCLUDING DEFAULTS) PARTITION BY RANGE ("at");--> statement-breakpoint
-- An event of a day with no partition yet lands here rather than being refused; the partition made
-- for its day later takes it out (docs/decisions/telemetry-partitions.md).
CREATE TABLE "telemetry_events_default" PARTITION OF "telemetry_events" DEFAULT;--> statement-breakpoint
-- A partition for each day the rows already stored fall on, and for today and the two days after.
DO $$
DECLARE
  day date;
BEGIN
  FOR day IN
    SELECT DISTINCT ("at" AT TIME ZONE 'UTC')::date FROM "telemetry_events_unpartitioned"
    UNION
    SELECT (now() AT TIME ZONE 'UTC')::date + ahead FROM generate_series(0, 2) AS ahead
  LOOP
    EXECUTE format(
      'CREATE TABLE %I PARTITION OF "telemetry_events" FOR VALUES FROM (%L) TO (%L)',
      'telemetry_events_' || to_char(day, 'YYYYMMDD'),
      day::text || ' 00:00:00+00',
      (day + 1)::text || ' 00:00:00+00'
    );
  END LOOP;
END $$;--> statement-breakpoint
INSERT INTO "telemetry_events" SELECT * FROM "telemetry_events_unpartitioned";--> statement-breakpoint
DROP TABLE "telemetry_events_unpartitioned";--> statement-breakpoint
ALTER TABLE "telemetry_events" ADD CONSTRAINT "telemetry_events_team_id_event_key_at_pk" PRIMARY KEY("team_id","event_key","at");--> statement-breakpoint
ALTER TABLE "telemetry_events" ADD CONSTRAINT "telemetry_events_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "telemetry_events_team_time_idx" ON "telemetry_events" USING btree ("team_id","at");--> statement-breakpoint
CREATE INDEX "telemetry_events_team_prompt_idx" ON "telemetry_events" USING btree ("team_id","prompt_id");
