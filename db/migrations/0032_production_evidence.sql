CREATE TABLE "muted_tools" (
	"team_id" integer NOT NULL,
	"skill_name" text NOT NULL,
	"tool_name" text NOT NULL,
	"muted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "muted_tools_team_id_skill_name_tool_name_pk" PRIMARY KEY("team_id","skill_name","tool_name")
);
--> statement-breakpoint
CREATE TABLE "production_prompts" (
	"team_id" integer NOT NULL,
	"session_id" text NOT NULL,
	"prompt_id" text NOT NULL,
	"skill_name" text NOT NULL,
	"version" integer,
	"loaded" boolean NOT NULL,
	"day" date NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"person" text,
	"activations" integer NOT NULL,
	"tool_calls" integer NOT NULL,
	"tool_failures" integer NOT NULL,
	"rejections" integer NOT NULL,
	"cost_usd" double precision NOT NULL,
	"tokens" bigint NOT NULL,
	"prompt_ms" bigint NOT NULL,
	"failing" jsonb NOT NULL,
	CONSTRAINT "production_prompts_team_id_session_id_prompt_id_skill_name_pk" PRIMARY KEY("team_id","session_id","prompt_id","skill_name")
);
--> statement-breakpoint
ALTER TABLE "telemetry_events" DROP CONSTRAINT "telemetry_events_team_id_event_key_pk";--> statement-breakpoint
ALTER TABLE "telemetry_events" ADD CONSTRAINT "telemetry_events_team_id_event_key_at_pk" PRIMARY KEY("team_id","event_key","at");--> statement-breakpoint
ALTER TABLE "observations" ADD COLUMN "source" text DEFAULT 'api' NOT NULL;--> statement-breakpoint
ALTER TABLE "observations" ADD COLUMN "prompt_id" text;--> statement-breakpoint
ALTER TABLE "telemetry_events" ADD COLUMN "sequence" bigint;--> statement-breakpoint
ALTER TABLE "telemetry_events" ADD COLUMN "tool_name" text;--> statement-breakpoint
ALTER TABLE "telemetry_events" ADD COLUMN "success" boolean;--> statement-breakpoint
ALTER TABLE "telemetry_events" ADD COLUMN "duration_ms" bigint;--> statement-breakpoint
ALTER TABLE "telemetry_events" ADD COLUMN "error_text" text;--> statement-breakpoint
ALTER TABLE "telemetry_events" ADD COLUMN "cost_usd" double precision;--> statement-breakpoint
ALTER TABLE "telemetry_events" ADD COLUMN "tokens" bigint;--> statement-breakpoint
ALTER TABLE "muted_tools" ADD CONSTRAINT "muted_tools_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "production_prompts" ADD CONSTRAINT "production_prompts_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "production_prompts_team_day_idx" ON "production_prompts" USING btree ("team_id","day");--> statement-breakpoint
CREATE INDEX "production_prompts_team_skill_idx" ON "production_prompts" USING btree ("team_id","skill_name","version");--> statement-breakpoint
CREATE UNIQUE INDEX "observations_telemetry_prompt_key" ON "observations" USING btree ("team_id","skill_name","session_id","prompt_id") WHERE source = 'telemetry';