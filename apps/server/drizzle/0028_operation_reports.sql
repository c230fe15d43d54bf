CREATE TABLE "operation_report_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"task_id" bigint NOT NULL,
	"scheduled_for" timestamp with time zone,
	"status" text DEFAULT 'queued' NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"figures" jsonb,
	"report_file_id" bigint,
	"file_name" text,
	"size" integer,
	"duration_ms" integer,
	"error" text,
	"link_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operation_report_tasks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"owner_id" bigint NOT NULL,
	"name" text NOT NULL,
	"department_id" bigint,
	"duration" text NOT NULL,
	"start_date" text NOT NULL,
	"start_hour" smallint DEFAULT 0 NOT NULL,
	"time_zone" text DEFAULT 'UTC' NOT NULL,
	"notifier_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"emails" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"language" text DEFAULT 'en' NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "operation_report_runs" ADD CONSTRAINT "operation_report_runs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operation_report_runs" ADD CONSTRAINT "operation_report_runs_task_id_operation_report_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."operation_report_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operation_report_runs" ADD CONSTRAINT "operation_report_runs_report_file_id_report_files_id_fk" FOREIGN KEY ("report_file_id") REFERENCES "public"."report_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operation_report_tasks" ADD CONSTRAINT "operation_report_tasks_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operation_report_tasks" ADD CONSTRAINT "operation_report_tasks_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operation_report_tasks" ADD CONSTRAINT "operation_report_tasks_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "operation_report_runs_task_idx" ON "operation_report_runs" USING btree ("task_id","created_at");--> statement-breakpoint
CREATE INDEX "operation_report_runs_company_idx" ON "operation_report_runs" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "operation_report_runs_occurrence_idx" ON "operation_report_runs" USING btree ("task_id","scheduled_for");--> statement-breakpoint
CREATE INDEX "operation_report_tasks_company_idx" ON "operation_report_tasks" USING btree ("company_id");