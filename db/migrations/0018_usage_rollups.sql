CREATE TABLE "co_loaded_days" (
	"team_id" integer NOT NULL,
	"skill_a" text NOT NULL,
	"skill_b" text NOT NULL,
	"day" date NOT NULL,
	"sessions" integer NOT NULL,
	CONSTRAINT "co_loaded_days_team_id_day_skill_a_skill_b_pk" PRIMARY KEY("team_id","day","skill_a","skill_b")
);
--> statement-breakpoint
CREATE TABLE "observation_totals" (
	"team_id" integer NOT NULL,
	"skill_name" text NOT NULL,
	"version" integer NOT NULL,
	"runs" integer NOT NULL,
	"successes" integer NOT NULL,
	CONSTRAINT "observation_totals_team_id_skill_name_version_pk" PRIMARY KEY("team_id","skill_name","version")
);
--> statement-breakpoint
CREATE TABLE "session_loads" (
	"team_id" integer NOT NULL,
	"session_id" text NOT NULL,
	"skill_name" text NOT NULL,
	"first_viewed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "session_loads_team_id_session_id_skill_name_pk" PRIMARY KEY("team_id","session_id","skill_name")
);
--> statement-breakpoint
CREATE TABLE "skill_view_days" (
	"team_id" integer NOT NULL,
	"skill_name" text NOT NULL,
	"day" date NOT NULL,
	"views" integer NOT NULL,
	"sessions" integer NOT NULL,
	CONSTRAINT "skill_view_days_team_id_day_skill_name_pk" PRIMARY KEY("team_id","day","skill_name")
);
--> statement-breakpoint
CREATE TABLE "skill_view_totals" (
	"team_id" integer NOT NULL,
	"skill_name" text NOT NULL,
	"source" text NOT NULL,
	"version" integer NOT NULL,
	"views" integer NOT NULL,
	"last_viewed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "skill_view_totals_team_id_skill_name_source_version_pk" PRIMARY KEY("team_id","skill_name","source","version")
);
--> statement-breakpoint
ALTER TABLE "co_loaded_days" ADD CONSTRAINT "co_loaded_days_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "observation_totals" ADD CONSTRAINT "observation_totals_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_loads" ADD CONSTRAINT "session_loads_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "skill_view_days" ADD CONSTRAINT "skill_view_days_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "skill_view_totals" ADD CONSTRAINT "skill_view_totals_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Backfill: the rollups of every view and observation recorded before they existed.
INSERT INTO "session_loads" ("team_id", "session_id", "skill_name", "first_viewed_at")
SELECT "team_id", "session_id", "skill_name", min("viewed_at") FROM "skill_views" WHERE "session_id" IS NOT NULL GROUP BY 1, 2, 3;--> statement-breakpoint
INSERT INTO "skill_view_days" ("team_id", "skill_name", "day", "views", "sessions")
SELECT v."team_id", v."skill_name", v."day", v."views", coalesce(s."sessions", 0)
FROM (SELECT "team_id", "skill_name", ("viewed_at" AT TIME ZONE 'UTC')::date AS "day", count(*)::int AS "views" FROM "skill_views" GROUP BY 1, 2, 3) v
LEFT JOIN (SELECT "team_id", "skill_name", ("first_viewed_at" AT TIME ZONE 'UTC')::date AS "day", count(*)::int AS "sessions" FROM "session_loads" GROUP BY 1, 2, 3) s
USING ("team_id", "skill_name", "day");--> statement-breakpoint
INSERT INTO "skill_view_totals" ("team_id", "skill_name", "source", "version", "views", "last_viewed_at")
SELECT "team_id", "skill_name", "source", "version", count(*)::int, max("viewed_at") FROM "skill_views" GROUP BY 1, 2, 3, 4;--> statement-breakpoint
INSERT INTO "co_loaded_days" ("team_id", "skill_a", "skill_b", "day", "sessions")
SELECT x."team_id", x."skill_name", y."skill_name", (greatest(x."first_viewed_at", y."first_viewed_at") AT TIME ZONE 'UTC')::date, count(*)::int
FROM "session_loads" x JOIN "session_loads" y ON y."team_id" = x."team_id" AND y."session_id" = x."session_id" AND x."skill_name" < y."skill_name"
GROUP BY 1, 2, 3, 4;--> statement-breakpoint
INSERT INTO "observation_totals" ("team_id", "skill_name", "version", "runs", "successes")
SELECT "team_id", "skill_name", "version", count(*)::int, (count(*) FILTER (WHERE "outcome" = 'success'))::int FROM "observations" GROUP BY 1, 2, 3;
