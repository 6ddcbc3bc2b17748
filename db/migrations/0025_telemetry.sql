CREATE TABLE "skill_activation_days" (
	"team_id" integer NOT NULL,
	"day" date NOT NULL,
	"skill_name" text NOT NULL,
	"proactive" integer NOT NULL,
	"slash" integer NOT NULL,
	"nested" integer NOT NULL,
	"people" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "skill_activation_days_team_id_day_skill_name_pk" PRIMARY KEY("team_id","day","skill_name")
);
--> statement-breakpoint
CREATE TABLE "skill_activation_last_days" (
	"team_id" integer NOT NULL,
	"skill_name" text NOT NULL,
	"person" text NOT NULL,
	"last_day" date NOT NULL,
	CONSTRAINT "skill_activation_last_days_team_id_skill_name_person_pk" PRIMARY KEY("team_id","skill_name","person")
);
--> statement-breakpoint
CREATE TABLE "skill_activation_people" (
	"team_id" integer NOT NULL,
	"day" date NOT NULL,
	"skill_name" text NOT NULL,
	"person" text NOT NULL,
	CONSTRAINT "skill_activation_people_team_id_day_skill_name_person_pk" PRIMARY KEY("team_id","day","skill_name","person")
);
--> statement-breakpoint
CREATE TABLE "telemetry_days" (
	"team_id" integer NOT NULL,
	"day" date NOT NULL,
	"records" bigint NOT NULL,
	"prompts" integer NOT NULL,
	"ignored" bigint NOT NULL,
	CONSTRAINT "telemetry_days_team_id_day_pk" PRIMARY KEY("team_id","day")
);
--> statement-breakpoint
CREATE TABLE "telemetry_events" (
	"team_id" integer NOT NULL,
	"event_key" text NOT NULL,
	"kind" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"session_id" text,
	"prompt_id" text,
	"skill_name" text,
	"trigger" text,
	"skill_source" text,
	"person" text,
	"prompt_text" text,
	CONSTRAINT "telemetry_events_team_id_event_key_pk" PRIMARY KEY("team_id","event_key")
);
--> statement-breakpoint
ALTER TABLE "teams" ADD COLUMN "store_prompts" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "teams" ADD COLUMN "telemetry_days" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "skill_activation_days" ADD CONSTRAINT "skill_activation_days_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "skill_activation_last_days" ADD CONSTRAINT "skill_activation_last_days_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "skill_activation_people" ADD CONSTRAINT "skill_activation_people_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telemetry_days" ADD CONSTRAINT "telemetry_days_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telemetry_events" ADD CONSTRAINT "telemetry_events_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "skill_activation_people_skill_idx" ON "skill_activation_people" USING btree ("team_id","skill_name","day");--> statement-breakpoint
CREATE INDEX "telemetry_events_team_time_idx" ON "telemetry_events" USING btree ("team_id","at");--> statement-breakpoint
CREATE INDEX "telemetry_events_team_prompt_idx" ON "telemetry_events" USING btree ("team_id","prompt_id");