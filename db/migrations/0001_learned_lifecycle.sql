CREATE TABLE "skill_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"team_id" integer NOT NULL,
	"skill_name" text NOT NULL,
	"kind" text NOT NULL,
	"version" integer,
	"actor_user_id" integer,
	"actor_key_id" integer,
	"session_id" text,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "learned_skill_versions" ADD COLUMN "revert_of" integer;--> statement-breakpoint
ALTER TABLE "learned_skill_versions" ADD COLUMN "tier" text DEFAULT 'unverified' NOT NULL;--> statement-breakpoint
ALTER TABLE "learned_skill_versions" ADD COLUMN "review" jsonb;--> statement-breakpoint
ALTER TABLE "learned_skills" ADD COLUMN "forked_from" text;--> statement-breakpoint
ALTER TABLE "learned_skills" ADD COLUMN "archived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "learned_skills" ADD COLUMN "status_before_archive" text;--> statement-breakpoint
ALTER TABLE "skill_events" ADD CONSTRAINT "skill_events_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "skill_events" ADD CONSTRAINT "skill_events_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "skill_events_team_time_idx" ON "skill_events" USING btree ("team_id","at");--> statement-breakpoint
CREATE INDEX "skill_events_team_skill_idx" ON "skill_events" USING btree ("team_id","skill_name");