CREATE TABLE "api_keys" (
	"id" serial PRIMARY KEY NOT NULL,
	"team_id" integer NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"scopes" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "memberships" (
	"team_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memberships_team_id_user_id_pk" PRIMARY KEY("team_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "teams" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"listing_cap" integer DEFAULT 8000 NOT NULL,
	"desc_max" integer DEFAULT 60 NOT NULL,
	"load_hint" text DEFAULT 'skill_view' NOT NULL,
	"auto_promote" boolean DEFAULT true NOT NULL,
	"catalog_revision" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"password_hash" text,
	"github_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "learned_skill_versions" (
	"skill_id" integer NOT NULL,
	"version" integer NOT NULL,
	"frontmatter" text NOT NULL,
	"body" text NOT NULL,
	"sha256" text NOT NULL,
	"author_user_id" integer,
	"author_key_id" integer,
	"author_session" text,
	"reason" text,
	"parent_version" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "learned_skill_versions_skill_id_version_pk" PRIMARY KEY("skill_id","version")
);
--> statement-breakpoint
CREATE TABLE "learned_skills" (
	"id" serial PRIMARY KEY NOT NULL,
	"team_id" integer NOT NULL,
	"name" text NOT NULL,
	"status" text NOT NULL,
	"current_version" integer NOT NULL,
	"description" text NOT NULL,
	"source_kind" text NOT NULL,
	"source_ref" text,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "listing_snapshots" (
	"id" serial PRIMARY KEY NOT NULL,
	"team_id" integer NOT NULL,
	"taken_at" timestamp with time zone DEFAULT now() NOT NULL,
	"cause" text NOT NULL,
	"chars" integer NOT NULL,
	"cap" integer NOT NULL,
	"total" integer NOT NULL,
	"shown" integer NOT NULL,
	"dropped_descriptions" integer NOT NULL,
	"dropped_entries" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "skill_views" (
	"id" serial PRIMARY KEY NOT NULL,
	"team_id" integer NOT NULL,
	"skill_name" text NOT NULL,
	"source" text NOT NULL,
	"version" integer NOT NULL,
	"key_id" integer,
	"session_id" text,
	"viewed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workspace_skill_files" (
	"team_id" integer NOT NULL,
	"name" text NOT NULL,
	"path" text NOT NULL,
	"content" "bytea" NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	CONSTRAINT "workspace_skill_files_team_id_name_path_pk" PRIMARY KEY("team_id","name","path")
);
--> statement-breakpoint
CREATE TABLE "workspace_skill_versions" (
	"team_id" integer NOT NULL,
	"name" text NOT NULL,
	"version" integer NOT NULL,
	"frontmatter" text NOT NULL,
	"body" text NOT NULL,
	"sha256" text NOT NULL,
	"tree_sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspace_skill_versions_team_id_name_version_pk" PRIMARY KEY("team_id","name","version")
);
--> statement-breakpoint
CREATE TABLE "workspace_skills" (
	"team_id" integer NOT NULL,
	"name" text NOT NULL,
	"current_version" integer NOT NULL,
	"description" text NOT NULL,
	"warnings" text[] DEFAULT '{}'::text[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspace_skills_team_id_name_pk" PRIMARY KEY("team_id","name")
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learned_skill_versions" ADD CONSTRAINT "learned_skill_versions_skill_id_learned_skills_id_fk" FOREIGN KEY ("skill_id") REFERENCES "public"."learned_skills"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learned_skill_versions" ADD CONSTRAINT "learned_skill_versions_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learned_skills" ADD CONSTRAINT "learned_skills_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_snapshots" ADD CONSTRAINT "listing_snapshots_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "skill_views" ADD CONSTRAINT "skill_views_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_skill_files" ADD CONSTRAINT "workspace_skill_files_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_skill_versions" ADD CONSTRAINT "workspace_skill_versions_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_skills" ADD CONSTRAINT "workspace_skills_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "teams_slug_key" ON "teams" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "users_github_id_key" ON "users" USING btree ("github_id");--> statement-breakpoint
CREATE UNIQUE INDEX "learned_skills_live_name_key" ON "learned_skills" USING btree ("team_id","name") WHERE status <> 'archived';--> statement-breakpoint
CREATE INDEX "listing_snapshots_team_time_idx" ON "listing_snapshots" USING btree ("team_id","taken_at");--> statement-breakpoint
CREATE INDEX "skill_views_team_skill_time_idx" ON "skill_views" USING btree ("team_id","skill_name","viewed_at");