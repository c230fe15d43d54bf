CREATE TABLE "open_api_key_devices" (
	"key_id" bigint NOT NULL,
	"device_id" bigint NOT NULL,
	CONSTRAINT "open_api_key_devices_key_id_device_id_pk" PRIMARY KEY("key_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "open_api_keys" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"name" text NOT NULL,
	"app_key" text NOT NULL,
	"secret_sealed" text NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "open_api_nonces" (
	"key_id" bigint NOT NULL,
	"nonce" text NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "open_api_nonces_key_id_nonce_pk" PRIMARY KEY("key_id","nonce")
);
--> statement-breakpoint
CREATE TABLE "open_api_usage" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"key_id" bigint NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"http_status" smallint NOT NULL,
	"msg_code" integer NOT NULL,
	"duration_ms" integer NOT NULL,
	"ip" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "open_api_key_devices" ADD CONSTRAINT "open_api_key_devices_key_id_open_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."open_api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "open_api_key_devices" ADD CONSTRAINT "open_api_key_devices_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "open_api_keys" ADD CONSTRAINT "open_api_keys_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "open_api_keys" ADD CONSTRAINT "open_api_keys_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "open_api_nonces" ADD CONSTRAINT "open_api_nonces_key_id_open_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."open_api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "open_api_usage" ADD CONSTRAINT "open_api_usage_key_id_open_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."open_api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "open_api_key_devices_device_idx" ON "open_api_key_devices" USING btree ("device_id");--> statement-breakpoint
CREATE UNIQUE INDEX "open_api_keys_app_key" ON "open_api_keys" USING btree ("app_key");--> statement-breakpoint
CREATE INDEX "open_api_keys_company_idx" ON "open_api_keys" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "open_api_nonces_seen_idx" ON "open_api_nonces" USING btree ("seen_at");--> statement-breakpoint
CREATE INDEX "open_api_usage_key_idx" ON "open_api_usage" USING btree ("key_id","at");