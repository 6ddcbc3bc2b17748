CREATE TABLE "ledger_records" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"ledger_id" integer NOT NULL,
	"kind" text NOT NULL,
	"seq" integer NOT NULL,
	"ref" text,
	"text" text,
	"falsified_by" text,
	"verdict" text,
	"evidence" text,
	"reason" text,
	"key_id" integer,
	"user_id" integer,
	"session_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledgers" (
	"id" serial PRIMARY KEY NOT NULL,
	"team_id" integer NOT NULL,
	"slug" text NOT NULL,
	"skill" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ledger_records" ADD CONSTRAINT "ledger_records_ledger_id_ledgers_id_fk" FOREIGN KEY ("ledger_id") REFERENCES "public"."ledgers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_records" ADD CONSTRAINT "ledger_records_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledgers" ADD CONSTRAINT "ledgers_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_records_ledger_kind_seq_key" ON "ledger_records" USING btree ("ledger_id","kind","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_records_one_judgement_key" ON "ledger_records" USING btree ("ledger_id","ref") WHERE kind in ('verdict', 'skip');--> statement-breakpoint
CREATE INDEX "ledger_records_ledger_idx" ON "ledger_records" USING btree ("ledger_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledgers_team_slug_key" ON "ledgers" USING btree ("team_id","slug");