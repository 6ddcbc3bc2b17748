CREATE TABLE "sign_in_failures" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"failures" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sign_in_known_addresses" (
	"account" text NOT NULL,
	"address" text NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sign_in_known_addresses_account_address_pk" PRIMARY KEY("account","address")
);
