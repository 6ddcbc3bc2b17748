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
ALTER TABLE "users" ADD COLUMN "github_emails" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "amendments" ADD COLUMN "decision" text;--> statement-breakpoint
ALTER TABLE "amendments" ADD COLUMN "decided_by_user_id" integer;--> statement-breakpoint
ALTER TABLE "amendments" ADD COLUMN "decided_by_key_id" integer;--> statement-breakpoint
ALTER TABLE "amendments" ADD COLUMN "decided_session" text;--> statement-breakpoint
ALTER TABLE "amendments" ADD COLUMN "decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "amendments" ADD COLUMN "decision_reason" text;--> statement-breakpoint
ALTER TABLE "amendments" ADD COLUMN "rejected_by_user_id" integer;--> statement-breakpoint
ALTER TABLE "amendments" ADD COLUMN "rejected_by_key_id" integer;--> statement-breakpoint
ALTER TABLE "amendments" ADD COLUMN "rejected_session" text;--> statement-breakpoint
ALTER TABLE "amendments" ADD COLUMN "rejected_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "amendments" ADD COLUMN "rejection_reason" text;--> statement-breakpoint
ALTER TABLE "workspace_staged_versions" ADD CONSTRAINT "workspace_staged_versions_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "workspace_staged_versions_time_idx" ON "workspace_staged_versions" USING btree ("staged_at");--> statement-breakpoint
ALTER TABLE "amendments" ADD CONSTRAINT "amendments_decided_by_user_id_users_id_fk" FOREIGN KEY ("decided_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "amendments" ADD CONSTRAINT "amendments_rejected_by_user_id_users_id_fk" FOREIGN KEY ("rejected_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "amendments_team_status_idx" ON "amendments" USING btree ("team_id","status","id");