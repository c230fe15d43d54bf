CREATE TABLE "logistics_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"order_no" text NOT NULL,
	"state" smallint DEFAULT 1 NOT NULL,
	"sender_address_id" bigint NOT NULL,
	"receiver_address_id" bigint NOT NULL,
	"sender" jsonb NOT NULL,
	"receiver" jsonb NOT NULL,
	"receiver_company_id" bigint,
	"goods" jsonb NOT NULL,
	"temp_min" double precision NOT NULL,
	"temp_max" double precision NOT NULL,
	"humidity_min" double precision,
	"humidity_max" double precision,
	"carrier" text DEFAULT '' NOT NULL,
	"vehicle" text DEFAULT '' NOT NULL,
	"planned_departure" timestamp with time zone,
	"planned_arrival" timestamp with time zone,
	"departed_at" timestamp with time zone,
	"arrived_at" timestamp with time zone,
	"remarks" text DEFAULT '' NOT NULL,
	"received_at" timestamp with time zone,
	"received_by" bigint,
	"receipt_remarks" text DEFAULT '' NOT NULL,
	"receipt_photo" text DEFAULT '' NOT NULL,
	"receipt_signature" jsonb,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "logistics_delivery_devices" (
	"delivery_id" bigint NOT NULL,
	"device_id" bigint NOT NULL,
	"company_id" bigint NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"alarm_setting_ids" bigint[] DEFAULT '{}' NOT NULL,
	CONSTRAINT "logistics_delivery_devices_delivery_id_device_id_pk" PRIMARY KEY("delivery_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "logistics_receipt_links" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"delivery_id" bigint NOT NULL,
	"company_id" bigint NOT NULL,
	"token_hash" text NOT NULL,
	"channel" text NOT NULL,
	"recipient" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "logistics_deliveries" ADD CONSTRAINT "logistics_deliveries_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "logistics_deliveries" ADD CONSTRAINT "logistics_deliveries_sender_address_id_logistics_addresses_id_fk" FOREIGN KEY ("sender_address_id") REFERENCES "public"."logistics_addresses"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "logistics_deliveries" ADD CONSTRAINT "logistics_deliveries_receiver_address_id_logistics_addresses_id_fk" FOREIGN KEY ("receiver_address_id") REFERENCES "public"."logistics_addresses"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "logistics_deliveries" ADD CONSTRAINT "logistics_deliveries_receiver_company_id_companies_id_fk" FOREIGN KEY ("receiver_company_id") REFERENCES "public"."companies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "logistics_deliveries" ADD CONSTRAINT "logistics_deliveries_received_by_users_id_fk" FOREIGN KEY ("received_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "logistics_deliveries" ADD CONSTRAINT "logistics_deliveries_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "logistics_delivery_devices" ADD CONSTRAINT "logistics_delivery_devices_delivery_id_logistics_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."logistics_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "logistics_delivery_devices" ADD CONSTRAINT "logistics_delivery_devices_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "logistics_receipt_links" ADD CONSTRAINT "logistics_receipt_links_delivery_id_logistics_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."logistics_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "logistics_receipt_links" ADD CONSTRAINT "logistics_receipt_links_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "logistics_deliveries_order_no_idx" ON "logistics_deliveries" USING btree ("company_id","order_no");--> statement-breakpoint
CREATE INDEX "logistics_deliveries_company_idx" ON "logistics_deliveries" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "logistics_deliveries_receiver_idx" ON "logistics_deliveries" USING btree ("receiver_company_id","created_at");--> statement-breakpoint
CREATE INDEX "logistics_deliveries_sender_address_idx" ON "logistics_deliveries" USING btree ("sender_address_id");--> statement-breakpoint
CREATE INDEX "logistics_deliveries_receiver_address_idx" ON "logistics_deliveries" USING btree ("receiver_address_id");--> statement-breakpoint
CREATE UNIQUE INDEX "logistics_delivery_devices_active_idx" ON "logistics_delivery_devices" USING btree ("device_id") WHERE active;--> statement-breakpoint
CREATE UNIQUE INDEX "logistics_receipt_links_token_idx" ON "logistics_receipt_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "logistics_receipt_links_delivery_idx" ON "logistics_receipt_links" USING btree ("delivery_id");
