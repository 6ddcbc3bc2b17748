DROP INDEX "telemetry_events_team_prompt_idx";--> statement-breakpoint
CREATE INDEX "production_prompts_session_prompt_idx" ON "production_prompts" USING btree ("session_id","prompt_id");--> statement-breakpoint
CREATE INDEX "telemetry_events_session_prompt_idx" ON "telemetry_events" USING btree ("session_id","prompt_id");