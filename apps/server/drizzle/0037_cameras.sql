CREATE TABLE "camera_alarm_snapshots" (
	"alarm_id" bigint NOT NULL,
	"camera_id" bigint NOT NULL,
	"company_id" bigint NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"image_url" text,
	"error" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"taken_at" timestamp with time zone,
	CONSTRAINT "camera_alarm_snapshots_alarm_id_camera_id_pk" PRIMARY KEY("alarm_id","camera_id")
);
--> statement-breakpoint
CREATE TABLE "camera_devices" (
	"camera_id" bigint NOT NULL,
	"device_id" bigint NOT NULL,
	CONSTRAINT "camera_devices_camera_id_device_id_pk" PRIMARY KEY("camera_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "camera_equipment" (
	"camera_id" bigint NOT NULL,
	"equipment_id" bigint NOT NULL,
	CONSTRAINT "camera_equipment_camera_id_equipment_id_pk" PRIMARY KEY("camera_id","equipment_id")
);
--> statement-breakpoint
CREATE TABLE "camera_platform_accounts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"name" text NOT NULL,
	"platform" text NOT NULL,
	"app_key_sealed" text,
	"app_key_masked" text DEFAULT '' NOT NULL,
	"app_secret_sealed" text,
	"token_sealed" text,
	"token_expires_at" timestamp with time zone,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "camera_screens" (
	"user_id" bigint NOT NULL,
	"company_id" bigint NOT NULL,
	"size" integer DEFAULT 4 NOT NULL,
	"camera_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "camera_screens_user_id_company_id_pk" PRIMARY KEY("user_id","company_id")
);
--> statement-breakpoint
CREATE TABLE "cameras" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"department_id" bigint,
	"platform_account_id" bigint NOT NULL,
	"name" text NOT NULL,
	"serial" text NOT NULL,
	"type" text DEFAULT '' NOT NULL,
	"channel" integer DEFAULT 1 NOT NULL,
	"stream_url" text DEFAULT '' NOT NULL,
	"online" boolean,
	"online_checked_at" timestamp with time zone,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "camera_alarm_snapshots" ADD CONSTRAINT "camera_alarm_snapshots_alarm_id_alarm_records_id_fk" FOREIGN KEY ("alarm_id") REFERENCES "public"."alarm_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "camera_alarm_snapshots" ADD CONSTRAINT "camera_alarm_snapshots_camera_id_cameras_id_fk" FOREIGN KEY ("camera_id") REFERENCES "public"."cameras"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "camera_devices" ADD CONSTRAINT "camera_devices_camera_id_cameras_id_fk" FOREIGN KEY ("camera_id") REFERENCES "public"."cameras"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "camera_devices" ADD CONSTRAINT "camera_devices_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "camera_equipment" ADD CONSTRAINT "camera_equipment_camera_id_cameras_id_fk" FOREIGN KEY ("camera_id") REFERENCES "public"."cameras"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "camera_equipment" ADD CONSTRAINT "camera_equipment_equipment_id_equipment_id_fk" FOREIGN KEY ("equipment_id") REFERENCES "public"."equipment"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "camera_platform_accounts" ADD CONSTRAINT "camera_platform_accounts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "camera_platform_accounts" ADD CONSTRAINT "camera_platform_accounts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "camera_screens" ADD CONSTRAINT "camera_screens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "camera_screens" ADD CONSTRAINT "camera_screens_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cameras" ADD CONSTRAINT "cameras_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cameras" ADD CONSTRAINT "cameras_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cameras" ADD CONSTRAINT "cameras_platform_account_id_camera_platform_accounts_id_fk" FOREIGN KEY ("platform_account_id") REFERENCES "public"."camera_platform_accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cameras" ADD CONSTRAINT "cameras_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "camera_alarm_snapshots_state_idx" ON "camera_alarm_snapshots" USING btree ("state");--> statement-breakpoint
CREATE INDEX "camera_devices_device_idx" ON "camera_devices" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "camera_equipment_equipment_idx" ON "camera_equipment" USING btree ("equipment_id");--> statement-breakpoint
CREATE INDEX "camera_platform_accounts_company_idx" ON "camera_platform_accounts" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "cameras_company_idx" ON "cameras" USING btree ("company_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "cameras_account_serial_channel" ON "cameras" USING btree ("platform_account_id","serial","channel");