CREATE TABLE "logistics_addresses" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"name" text NOT NULL,
	"contact" text NOT NULL,
	"phone" text NOT NULL,
	"region" text DEFAULT '' NOT NULL,
	"address" text NOT NULL,
	"lng" double precision,
	"lat" double precision,
	"remarks" text DEFAULT '' NOT NULL,
	"receiver_company_id" bigint,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "logistics_addresses" ADD CONSTRAINT "logistics_addresses_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "logistics_addresses" ADD CONSTRAINT "logistics_addresses_receiver_company_id_companies_id_fk" FOREIGN KEY ("receiver_company_id") REFERENCES "public"."companies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "logistics_addresses" ADD CONSTRAINT "logistics_addresses_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "logistics_addresses_company_idx" ON "logistics_addresses" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "logistics_addresses_receiver_idx" ON "logistics_addresses" USING btree ("receiver_company_id");