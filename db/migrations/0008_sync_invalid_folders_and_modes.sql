CREATE TABLE "workspace_invalid_folders" (
	"team_id" integer NOT NULL,
	"name" text NOT NULL,
	"errors" text[] NOT NULL,
	CONSTRAINT "workspace_invalid_folders_team_id_name_pk" PRIMARY KEY("team_id","name")
);
--> statement-breakpoint
ALTER TABLE "workspace_skill_files" ADD COLUMN "executable" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "workspace_invalid_folders" ADD CONSTRAINT "workspace_invalid_folders_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;