CREATE TABLE "amendments" (
	"id" serial PRIMARY KEY NOT NULL,
	"team_id" integer NOT NULL,
	"skill_name" text NOT NULL,
	"skill_source" text NOT NULL,
	"base_version" integer NOT NULL,
	"description" text,
	"body" text,
	"rationale" text NOT NULL,
	"origin" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"author_user_id" integer,
	"author_key_id" integer,
	"session_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "evaluation_cases" (
	"id" serial PRIMARY KEY NOT NULL,
	"evaluation_id" integer NOT NULL,
	"position" integer NOT NULL,
	"observation_id" integer NOT NULL,
	"outcome" text NOT NULL,
	"task" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"original" jsonb,
	"amended" jsonb,
	"change" text,
	"rationale" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "evaluations" (
	"id" serial PRIMARY KEY NOT NULL,
	"team_id" integer NOT NULL,
	"amendment_id" integer NOT NULL,
	"skill_name" text NOT NULL,
	"status" text NOT NULL,
	"verdict" text,
	"delta" double precision,
	"improved" integer DEFAULT 0 NOT NULL,
	"regressed" integer DEFAULT 0 NOT NULL,
	"unchanged" integer DEFAULT 0 NOT NULL,
	"failed_to_judge" integer DEFAULT 0 NOT NULL,
	"cases_total" integer DEFAULT 0 NOT NULL,
	"cases_done" integer DEFAULT 0 NOT NULL,
	"model_id" text NOT NULL,
	"prompt_version" text NOT NULL,
	"promoted_version" integer,
	"promotion_note" text,
	"error" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "observations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"team_id" integer NOT NULL,
	"skill_name" text NOT NULL,
	"version" integer NOT NULL,
	"task" text NOT NULL,
	"category" text NOT NULL,
	"outcome" text NOT NULL,
	"score" double precision,
	"error_type" text,
	"duration_ms" integer,
	"tools_called" text[],
	"failed_tool_calls" text[],
	"feedback" text,
	"session_id" text,
	"key_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "learned_skill_versions" ADD COLUMN "evaluation_id" integer;--> statement-breakpoint
ALTER TABLE "amendments" ADD CONSTRAINT "amendments_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "amendments" ADD CONSTRAINT "amendments_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_cases" ADD CONSTRAINT "evaluation_cases_evaluation_id_evaluations_id_fk" FOREIGN KEY ("evaluation_id") REFERENCES "public"."evaluations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluations" ADD CONSTRAINT "evaluations_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluations" ADD CONSTRAINT "evaluations_amendment_id_amendments_id_fk" FOREIGN KEY ("amendment_id") REFERENCES "public"."amendments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "observations" ADD CONSTRAINT "observations_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "amendments_team_skill_idx" ON "amendments" USING btree ("team_id","skill_name");--> statement-breakpoint
CREATE INDEX "evaluation_cases_evaluation_idx" ON "evaluation_cases" USING btree ("evaluation_id","position");--> statement-breakpoint
CREATE INDEX "evaluations_team_idx" ON "evaluations" USING btree ("team_id","started_at");--> statement-breakpoint
CREATE INDEX "observations_team_skill_time_idx" ON "observations" USING btree ("team_id","skill_name","created_at");