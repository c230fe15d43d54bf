CREATE TABLE "docking_platforms" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"protocol" text NOT NULL,
	"endpoint" text NOT NULL,
	"key_id" text NOT NULL,
	"secret_sealed" text NOT NULL,
	"offered" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "platform_dockings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"platform_id" bigint NOT NULL,
	"state" smallint DEFAULT 1 NOT NULL,
	"device_ids" bigint[] DEFAULT '{}' NOT NULL,
	"push_url_id" bigint,
	"applied_by" bigint,
	"applied_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"reason" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "push_urls" ADD COLUMN "docking_owned" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "push_urls" ADD COLUMN "adapter" text DEFAULT 'push' NOT NULL;--> statement-breakpoint
ALTER TABLE "push_urls" ADD COLUMN "key_id" text;--> statement-breakpoint
ALTER TABLE "platform_dockings" ADD CONSTRAINT "platform_dockings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_dockings" ADD CONSTRAINT "platform_dockings_platform_id_docking_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."docking_platforms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_dockings" ADD CONSTRAINT "platform_dockings_push_url_id_push_urls_id_fk" FOREIGN KEY ("push_url_id") REFERENCES "public"."push_urls"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_dockings" ADD CONSTRAINT "platform_dockings_applied_by_users_id_fk" FOREIGN KEY ("applied_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "platform_dockings_company_idx" ON "platform_dockings" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "platform_dockings_live_idx" ON "platform_dockings" USING btree ("company_id","platform_id") WHERE state <> 3;