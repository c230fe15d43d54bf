CREATE TABLE "jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"key" text,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"run_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 5 NOT NULL,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "report_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"task_id" bigint NOT NULL,
	"scheduled_for" timestamp with time zone,
	"status" text DEFAULT 'queued' NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"file_name" text,
	"content_type" text,
	"stored_name" text,
	"size" integer,
	"duration_ms" integer,
	"error" text,
	"link_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_tasks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"owner_id" bigint NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"frequency" text NOT NULL,
	"format" text NOT NULL,
	"device_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"equipment_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"recipient_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"emails" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"time_zone" text DEFAULT 'UTC' NOT NULL,
	"language" text DEFAULT 'en' NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "report_runs" ADD CONSTRAINT "report_runs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_runs" ADD CONSTRAINT "report_runs_task_id_report_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."report_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_tasks" ADD CONSTRAINT "report_tasks_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_tasks" ADD CONSTRAINT "report_tasks_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_key_idx" ON "jobs" USING btree ("key");--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("run_at") WHERE "jobs"."status" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "report_runs_task_idx" ON "report_runs" USING btree ("task_id","created_at");--> statement-breakpoint
CREATE INDEX "report_runs_company_idx" ON "report_runs" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "report_runs_occurrence_idx" ON "report_runs" USING btree ("task_id","scheduled_for");--> statement-breakpoint
CREATE INDEX "report_tasks_company_idx" ON "report_tasks" USING btree ("company_id");