CREATE TABLE "learned_skill_labels" (
	"skill_id" integer NOT NULL,
	"label" text NOT NULL,
	"version" integer NOT NULL,
	"description" text NOT NULL,
	"moved_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "learned_skill_labels_skill_id_label_pk" PRIMARY KEY("skill_id","label")
);
--> statement-breakpoint
ALTER TABLE "install_links" ADD COLUMN "label" text;--> statement-breakpoint
ALTER TABLE "learned_skill_labels" ADD CONSTRAINT "learned_skill_labels_skill_id_learned_skills_id_fk" FOREIGN KEY ("skill_id") REFERENCES "public"."learned_skills"("id") ON DELETE cascade ON UPDATE no action;