CREATE TABLE "alarm_notifications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"alarm_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"channel" text NOT NULL,
	"sequence" integer DEFAULT 1 NOT NULL,
	"level" smallint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "alarm_records" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"device_id" bigint NOT NULL,
	"sensor_id" bigint,
	"setting_id" bigint,
	"alarm_type" text NOT NULL,
	"level" smallint NOT NULL,
	"alarm_time" timestamp with time zone NOT NULL,
	"excursion_start" timestamp with time zone NOT NULL,
	"dedupe_key" text NOT NULL,
	"content" jsonb NOT NULL,
	"count" integer DEFAULT 1 NOT NULL,
	"last_value" double precision,
	"resolve_state" smallint DEFAULT 1 NOT NULL,
	"resolver_id" bigint,
	"resolve_time" timestamp with time zone,
	"resolve_type" text,
	"cause" text,
	"action" text,
	"end_time" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alarm_settings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"carrier" text NOT NULL,
	"target_id" bigint NOT NULL,
	"device_id" bigint NOT NULL,
	"sensor_id" bigint,
	"level" smallint NOT NULL,
	"alarm_type" text NOT NULL,
	"min" double precision,
	"max" double precision,
	"pre_min" double precision,
	"pre_max" double precision,
	"delay_seconds" integer DEFAULT 0 NOT NULL,
	"hysteresis" double precision DEFAULT 0 NOT NULL,
	"repeat" smallint NOT NULL,
	"repeat_interval_seconds" integer DEFAULT 600 NOT NULL,
	"escalate_after_seconds" integer DEFAULT 0 NOT NULL,
	"all_day" boolean DEFAULT true NOT NULL,
	"periods" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"weekdays" smallint[] DEFAULT '{1,2,3,4,5,6,7}' NOT NULL,
	"time_zone" text DEFAULT 'UTC' NOT NULL,
	"channels" text[] DEFAULT '{}' NOT NULL,
	"notifier_ids" bigint[] DEFAULT '{}' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alarm_state" (
	"setting_id" bigint NOT NULL,
	"sensor_id" bigint NOT NULL,
	"company_id" bigint NOT NULL,
	"device_id" bigint NOT NULL,
	"state" jsonb NOT NULL,
	"active" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alarm_state_setting_id_sensor_id_pk" PRIMARY KEY("setting_id","sensor_id")
);
--> statement-breakpoint
ALTER TABLE "alarm_notifications" ADD CONSTRAINT "alarm_notifications_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_notifications" ADD CONSTRAINT "alarm_notifications_alarm_id_alarm_records_id_fk" FOREIGN KEY ("alarm_id") REFERENCES "public"."alarm_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_notifications" ADD CONSTRAINT "alarm_notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_records" ADD CONSTRAINT "alarm_records_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_records" ADD CONSTRAINT "alarm_records_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_records" ADD CONSTRAINT "alarm_records_setting_id_alarm_settings_id_fk" FOREIGN KEY ("setting_id") REFERENCES "public"."alarm_settings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_records" ADD CONSTRAINT "alarm_records_resolver_id_users_id_fk" FOREIGN KEY ("resolver_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_settings" ADD CONSTRAINT "alarm_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_settings" ADD CONSTRAINT "alarm_settings_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_settings" ADD CONSTRAINT "alarm_settings_sensor_id_sensors_id_fk" FOREIGN KEY ("sensor_id") REFERENCES "public"."sensors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_state" ADD CONSTRAINT "alarm_state_setting_id_alarm_settings_id_fk" FOREIGN KEY ("setting_id") REFERENCES "public"."alarm_settings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alarm_notifications_status_idx" ON "alarm_notifications" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "alarm_notifications_alarm_idx" ON "alarm_notifications" USING btree ("alarm_id");--> statement-breakpoint
CREATE UNIQUE INDEX "alarm_records_dedupe_key" ON "alarm_records" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "alarm_records_company_time_idx" ON "alarm_records" USING btree ("company_id","alarm_time");--> statement-breakpoint
CREATE INDEX "alarm_records_company_device_idx" ON "alarm_records" USING btree ("company_id","device_id");--> statement-breakpoint
CREATE INDEX "alarm_settings_company_device_idx" ON "alarm_settings" USING btree ("company_id","device_id");--> statement-breakpoint
CREATE INDEX "alarm_state_company_device_idx" ON "alarm_state" USING btree ("company_id","device_id");