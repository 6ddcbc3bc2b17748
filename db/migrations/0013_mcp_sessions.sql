CREATE TABLE "mcp_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"team_id" integer NOT NULL,
	"key_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mcp_sessions" ADD CONSTRAINT "mcp_sessions_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mcp_sessions_last_seen_idx" ON "mcp_sessions" USING btree ("last_seen_at");