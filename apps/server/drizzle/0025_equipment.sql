CREATE TABLE "equipment" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"type_id" bigint NOT NULL,
	"serial" text NOT NULL,
	"serial_suffix" text NOT NULL,
	"name" text NOT NULL,
	"department_id" bigint,
	"group_id" bigint,
	"address" text DEFAULT '' NOT NULL,
	"region" text DEFAULT '' NOT NULL,
	"remarks" text DEFAULT '' NOT NULL,
	"use_state" smallint DEFAULT 1 NOT NULL,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"excursion" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "equipment_use_state_range" CHECK ("equipment"."use_state" between 1 and 4)
);
--> statement-breakpoint
CREATE TABLE "equipment_records" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"equipment_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"time" timestamp with time zone NOT NULL,
	"end_time" timestamp with time zone,
	"plan_id" bigint,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "equipment_sensors" (
	"sensor_id" bigint PRIMARY KEY NOT NULL,
	"equipment_id" bigint NOT NULL,
	"company_id" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "equipment_types" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"name" text NOT NULL,
	"code" text NOT NULL,
	"intro_image" text DEFAULT '' NOT NULL,
	"attributes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "patrol_plans" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"name" text NOT NULL,
	"equipment_id" bigint,
	"group_id" bigint,
	"interval_minutes" integer NOT NULL,
	"start_time" timestamp with time zone NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "patrol_plans_one_target" CHECK (("patrol_plans"."equipment_id" is null) <> ("patrol_plans"."group_id" is null)),
	CONSTRAINT "patrol_plans_interval_over_6h" CHECK ("patrol_plans"."interval_minutes" > 360)
);
--> statement-breakpoint
ALTER TABLE "device_calibrations" ALTER COLUMN "device_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "device_calibrations" ADD COLUMN "equipment_id" bigint;--> statement-breakpoint
ALTER TABLE "equipment" ADD CONSTRAINT "equipment_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment" ADD CONSTRAINT "equipment_type_id_equipment_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."equipment_types"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment" ADD CONSTRAINT "equipment_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment" ADD CONSTRAINT "equipment_group_id_device_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."device_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment_records" ADD CONSTRAINT "equipment_records_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment_records" ADD CONSTRAINT "equipment_records_equipment_id_equipment_id_fk" FOREIGN KEY ("equipment_id") REFERENCES "public"."equipment"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment_records" ADD CONSTRAINT "equipment_records_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment_sensors" ADD CONSTRAINT "equipment_sensors_sensor_id_sensors_id_fk" FOREIGN KEY ("sensor_id") REFERENCES "public"."sensors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment_sensors" ADD CONSTRAINT "equipment_sensors_equipment_id_equipment_id_fk" FOREIGN KEY ("equipment_id") REFERENCES "public"."equipment"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment_types" ADD CONSTRAINT "equipment_types_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patrol_plans" ADD CONSTRAINT "patrol_plans_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patrol_plans" ADD CONSTRAINT "patrol_plans_equipment_id_equipment_id_fk" FOREIGN KEY ("equipment_id") REFERENCES "public"."equipment"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patrol_plans" ADD CONSTRAINT "patrol_plans_group_id_device_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."device_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "equipment_company_serial_key" ON "equipment" USING btree ("company_id","serial");--> statement-breakpoint
CREATE INDEX "equipment_company_type_idx" ON "equipment" USING btree ("company_id","type_id");--> statement-breakpoint
CREATE INDEX "equipment_records_equipment_idx" ON "equipment_records" USING btree ("equipment_id","time");--> statement-breakpoint
CREATE UNIQUE INDEX "equipment_records_one_scrap_key" ON "equipment_records" USING btree ("equipment_id") WHERE "equipment_records"."kind" = 'scrap';--> statement-breakpoint
CREATE INDEX "equipment_sensors_equipment_idx" ON "equipment_sensors" USING btree ("equipment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "equipment_types_company_code_key" ON "equipment_types" USING btree ("company_id","code");--> statement-breakpoint
CREATE INDEX "patrol_plans_company_idx" ON "patrol_plans" USING btree ("company_id");--> statement-breakpoint
ALTER TABLE "device_calibrations" ADD CONSTRAINT "device_calibrations_equipment_id_equipment_id_fk" FOREIGN KEY ("equipment_id") REFERENCES "public"."equipment"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_calibrations_equipment_idx" ON "device_calibrations" USING btree ("equipment_id","calibrated_at");--> statement-breakpoint
ALTER TABLE "device_calibrations" ADD CONSTRAINT "device_calibrations_one_subject" CHECK (("device_calibrations"."device_id" is null) <> ("device_calibrations"."equipment_id" is null));