CREATE TABLE "workspace_staged_versions" (
	"sync_id" text NOT NULL,
	"team_id" integer NOT NULL,
	"name" text NOT NULL,
	"frontmatter" "bytea" NOT NULL,
	"body" "bytea" NOT NULL,
	"sha256" text NOT NULL,
	"tree_sha256" text NOT NULL,
	"staged_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspace_staged_versions_sync_id_name_pk" PRIMARY KEY("sync_id","name")
);
--> statement-breakpoint
ALTER TABLE "workspace_staged_versions" ADD CONSTRAINT "workspace_staged_versions_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "workspace_staged_versions_time_idx" ON "workspace_staged_versions" USING btree ("staged_at");