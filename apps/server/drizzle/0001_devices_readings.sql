CREATE TABLE "device_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"device_id" bigint NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"event" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"serial" text NOT NULL,
	"name" text NOT NULL,
	"model" text NOT NULL,
	"version" text NOT NULL,
	"department_id" bigint,
	"group_id" bigint,
	"state" smallint DEFAULT 4 NOT NULL,
	"key_hash" text NOT NULL,
	"record_interval_s" integer DEFAULT 300 NOT NULL,
	"upload_interval_s" integer DEFAULT 300 NOT NULL,
	"alarm_verify_interval_s" integer DEFAULT 300 NOT NULL,
	"offline_judgement" smallint DEFAULT 3 NOT NULL,
	"host_address" text DEFAULT '' NOT NULL,
	"sub_address" text DEFAULT '' NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"region" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"lng" double precision,
	"lat" double precision,
	"battery" smallint,
	"power" text,
	"mode" text DEFAULT 'normal' NOT NULL,
	"expire_time" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sensors" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"device_id" bigint NOT NULL,
	"channel" smallint NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"unit" text NOT NULL,
	"range_min" real NOT NULL,
	"range_max" real NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"value" real,
	"update_time" timestamp with time zone,
	"enabled" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "readings" (
	"sensor_id" bigint NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"value" real NOT NULL,
	"backfilled" boolean DEFAULT false NOT NULL,
	CONSTRAINT "readings_sensor_id_ts_pk" PRIMARY KEY("sensor_id","ts")
) PARTITION BY RANGE ("ts");
--> statement-breakpoint
-- Readings outside the prepared monthly partitions (old back-fills, clock errors) land here.
CREATE TABLE "readings_default" PARTITION OF "readings" DEFAULT;
--> statement-breakpoint
ALTER TABLE "device_events" ADD CONSTRAINT "device_events_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sensors" ADD CONSTRAINT "sensors_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sensors" ADD CONSTRAINT "sensors_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "device_events_dedupe_key" ON "device_events" USING btree ("device_id","ts","event");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_serial_key" ON "devices" USING btree ("serial");--> statement-breakpoint
CREATE INDEX "devices_company_state_idx" ON "devices" USING btree ("company_id","state");--> statement-breakpoint
CREATE UNIQUE INDEX "sensors_device_channel_key" ON "sensors" USING btree ("device_id","channel");--> statement-breakpoint
CREATE INDEX "sensors_company_idx" ON "sensors" USING btree ("company_id");