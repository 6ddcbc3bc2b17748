DROP INDEX "skill_views_team_skill_time_idx";--> statement-breakpoint
CREATE INDEX "skill_views_team_time_idx" ON "skill_views" USING btree ("team_id","viewed_at");