CREATE TABLE "report_files" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"file_name" text NOT NULL,
	"fingerprint" text NOT NULL,
	"file_sha256" text NOT NULL,
	"size" integer NOT NULL,
	"generated_by" bigint,
	"generated_by_name" text NOT NULL,
	"generated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"stored_path" text
);
--> statement-breakpoint
ALTER TABLE "report_files" ADD CONSTRAINT "report_files_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_files" ADD CONSTRAINT "report_files_generated_by_users_id_fk" FOREIGN KEY ("generated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_files_fingerprint_idx" ON "report_files" USING btree ("fingerprint");--> statement-breakpoint
CREATE INDEX "report_files_company_time_idx" ON "report_files" USING btree ("company_id","generated_at");