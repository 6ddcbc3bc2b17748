ALTER TABLE "learned_skills" ADD COLUMN "pinned_version" integer;--> statement-breakpoint
ALTER TABLE "learned_skills" ADD COLUMN "pinned_description" text;