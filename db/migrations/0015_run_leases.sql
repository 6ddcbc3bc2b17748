ALTER TABLE "eval_runs" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "eval_runs" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "eval_runs_running_idx" ON "eval_runs" USING btree ("status","lease_until");