CREATE TABLE "eval_results" (
	"id" serial PRIMARY KEY NOT NULL,
	"run_id" integer NOT NULL,
	"case_id" text NOT NULL,
	"trial" integer NOT NULL,
	"loaded" text[] NOT NULL,
	"passed" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "eval_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"team_id" integer NOT NULL,
	"prompt_set_name" text NOT NULL,
	"cases" jsonb NOT NULL,
	"activator" text NOT NULL,
	"model_id" text,
	"trials" integer NOT NULL,
	"status" text NOT NULL,
	"listing_text" text NOT NULL,
	"case_runs" integer NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"metrics" jsonb,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "prompt_sets" (
	"id" serial PRIMARY KEY NOT NULL,
	"team_id" integer NOT NULL,
	"name" text NOT NULL,
	"cases" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "eval_results" ADD CONSTRAINT "eval_results_run_id_eval_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."eval_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "eval_runs" ADD CONSTRAINT "eval_runs_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prompt_sets" ADD CONSTRAINT "prompt_sets_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "eval_results_run_case_trial_key" ON "eval_results" USING btree ("run_id","case_id","trial");--> statement-breakpoint
CREATE INDEX "eval_runs_team_idx" ON "eval_runs" USING btree ("team_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "prompt_sets_team_name_key" ON "prompt_sets" USING btree ("team_id","name");