CREATE TABLE "service_lapses" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"device_id" bigint NOT NULL,
	"company_id" bigint NOT NULL,
	"lapsed_from" timestamp with time zone NOT NULL,
	"lapsed_until" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "service_lapses" ADD CONSTRAINT "service_lapses_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_lapses" ADD CONSTRAINT "service_lapses_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "service_lapses_device_idx" ON "service_lapses" USING btree ("device_id","lapsed_from");