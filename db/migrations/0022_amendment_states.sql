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
ALTER TABLE "amendments" ADD CONSTRAINT "amendments_decided_by_user_id_users_id_fk" FOREIGN KEY ("decided_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "amendments" ADD CONSTRAINT "amendments_rejected_by_user_id_users_id_fk" FOREIGN KEY ("rejected_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "amendments_team_status_idx" ON "amendments" USING btree ("team_id","status","id");