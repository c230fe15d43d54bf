ALTER TABLE "companies" ADD COLUMN "sign_check" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "company_members" ADD COLUMN "export_excel" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sign_fail_count" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sign_failed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sign_locked_until" timestamp with time zone;--> statement-breakpoint
-- Audit signature becomes a company policy: a company any of whose members had the old per-user
-- flag on keeps signing on for everyone, so no one's records lose their signature by the move.
UPDATE "companies" SET "sign_check" = true WHERE "id" IN (
	SELECT m."company_id" FROM "company_members" m JOIN "users" u ON u."id" = m."user_id" WHERE u."sign_check"
);--> statement-breakpoint
-- The export flag moves to the membership, keeping each person's former value in every company.
UPDATE "company_members" SET "export_excel" = u."export_excel" FROM "users" u WHERE u."id" = "company_members"."user_id";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "sign_check";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "export_excel";
