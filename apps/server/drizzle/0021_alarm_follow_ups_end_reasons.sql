CREATE TABLE "alarm_follow_ups" (
	"alarm_id" bigint PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"next_repeat_at" timestamp with time zone,
	"next_escalate_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "alarm_records" ADD COLUMN "peak_value" double precision;--> statement-breakpoint
ALTER TABLE "alarm_records" ADD COLUMN "late_by_seconds" integer;--> statement-breakpoint
ALTER TABLE "alarm_records" ADD COLUMN "end_reason" text;--> statement-breakpoint
ALTER TABLE "alarm_records" ADD COLUMN "ended_by" bigint;--> statement-breakpoint
ALTER TABLE "alarm_settings" ADD COLUMN "escalation" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "alarm_follow_ups" ADD CONSTRAINT "alarm_follow_ups_alarm_id_alarm_records_id_fk" FOREIGN KEY ("alarm_id") REFERENCES "public"."alarm_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_follow_ups" ADD CONSTRAINT "alarm_follow_ups_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alarm_follow_ups_repeat_idx" ON "alarm_follow_ups" USING btree ("next_repeat_at");--> statement-breakpoint
CREATE INDEX "alarm_follow_ups_escalate_idx" ON "alarm_follow_ups" USING btree ("next_escalate_at");--> statement-breakpoint
ALTER TABLE "alarm_records" ADD CONSTRAINT "alarm_records_ended_by_users_id_fk" FOREIGN KEY ("ended_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;