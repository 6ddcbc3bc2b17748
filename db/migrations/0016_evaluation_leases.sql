ALTER TABLE "evaluations" ADD COLUMN "started_by_user_id" integer;--> statement-breakpoint
ALTER TABLE "evaluations" ADD COLUMN "started_by_key_id" integer;--> statement-breakpoint
ALTER TABLE "evaluations" ADD COLUMN "started_session" text;--> statement-breakpoint
ALTER TABLE "evaluations" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "evaluations" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "evaluations" ADD CONSTRAINT "evaluations_started_by_user_id_users_id_fk" FOREIGN KEY ("started_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "evaluations_running_idx" ON "evaluations" USING btree ("status","lease_until");