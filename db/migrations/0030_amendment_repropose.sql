ALTER TABLE "amendments" ADD COLUMN "reproposed_from" integer;--> statement-breakpoint
ALTER TABLE "amendments" ADD COLUMN "superseded_by" integer;--> statement-breakpoint
ALTER TABLE "amendments" ADD CONSTRAINT "amendments_reproposed_from_amendments_id_fk" FOREIGN KEY ("reproposed_from") REFERENCES "public"."amendments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "amendments" ADD CONSTRAINT "amendments_superseded_by_amendments_id_fk" FOREIGN KEY ("superseded_by") REFERENCES "public"."amendments"("id") ON DELETE set null ON UPDATE no action;