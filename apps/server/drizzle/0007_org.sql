CREATE TABLE "departments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"parent_id" bigint,
	"path" text DEFAULT '' NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"level" smallint NOT NULL,
	"leader_user_id" bigint,
	"address" text DEFAULT '' NOT NULL,
	"image_url" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_permissions" (
	"company_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"device_id" bigint NOT NULL,
	"can_edit" boolean DEFAULT false NOT NULL,
	CONSTRAINT "device_permissions_user_id_device_id_pk" PRIMARY KEY("user_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "invitations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"company_id" bigint NOT NULL,
	"department_id" bigint NOT NULL,
	"created_by" bigint,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "join_requests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"department_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"state" smallint DEFAULT 1 NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"decided_by" bigint,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "roles" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"department_id" bigint NOT NULL,
	"name" text NOT NULL,
	"is_department_admin" boolean DEFAULT false NOT NULL,
	"tags" text[] DEFAULT '{}' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "company_members" ADD COLUMN "department_id" bigint;--> statement-breakpoint
ALTER TABLE "company_members" ADD COLUMN "role_id" bigint;--> statement-breakpoint
ALTER TABLE "departments" ADD CONSTRAINT "departments_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "departments" ADD CONSTRAINT "departments_leader_user_id_users_id_fk" FOREIGN KEY ("leader_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_permissions" ADD CONSTRAINT "device_permissions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_permissions" ADD CONSTRAINT "device_permissions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_permissions" ADD CONSTRAINT "device_permissions_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "join_requests" ADD CONSTRAINT "join_requests_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "join_requests" ADD CONSTRAINT "join_requests_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "join_requests" ADD CONSTRAINT "join_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "join_requests" ADD CONSTRAINT "join_requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roles" ADD CONSTRAINT "roles_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roles" ADD CONSTRAINT "roles_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "departments_code_key" ON "departments" USING btree ("code");--> statement-breakpoint
CREATE INDEX "departments_company_path_idx" ON "departments" USING btree ("company_id","path");--> statement-breakpoint
CREATE INDEX "device_permissions_device_idx" ON "device_permissions" USING btree ("device_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_code_key" ON "invitations" USING btree ("code");--> statement-breakpoint
CREATE INDEX "join_requests_department_state_idx" ON "join_requests" USING btree ("department_id","state");--> statement-breakpoint
CREATE UNIQUE INDEX "roles_department_name_key" ON "roles" USING btree ("department_id","name");--> statement-breakpoint
CREATE INDEX "company_members_department_idx" ON "company_members" USING btree ("department_id");--> statement-breakpoint
CREATE INDEX "company_members_role_idx" ON "company_members" USING btree ("role_id");--> statement-breakpoint
-- Kept out of the Drizzle schema to avoid import cycles between table modules (see companies.table.ts).
ALTER TABLE "company_members" ADD CONSTRAINT "company_members_department_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE set null;--> statement-breakpoint
ALTER TABLE "company_members" ADD CONSTRAINT "company_members_role_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE set null;--> statement-breakpoint
-- Companies made before departments existed get their root department and administrator role.
INSERT INTO "departments" ("company_id", "parent_id", "code", "name", "level")
  SELECT c."id", NULL, lpad(((floor(random() * 899999999999) + 100000000000)::bigint)::text, 12, '0'), c."name", 1
  FROM "companies" c;--> statement-breakpoint
UPDATE "departments" SET "path" = '/' || "id" || '/';--> statement-breakpoint
INSERT INTO "roles" ("company_id", "department_id", "name", "is_department_admin", "tags")
  SELECT d."company_id", d."id", 'Administrator', true,
    ARRAY['home:view','monitoring:view','logistics:view','logistics:edit','device:view','device:edit','device:export','device:topUp','equipment:view','equipment:edit','camera:view','camera:edit','alarm:view','alarm:edit','alarm:resolve','org:view','org:edit','user:view','user:edit','role:view','role:edit','billing:view','billing:topUp','invoice:view','invoice:edit','audit:view','audit:export','statistics:view','docking:view','docking:edit','report:view','report:edit','backup:view','backup:edit','data:view']
  FROM "departments" d;--> statement-breakpoint
UPDATE "company_members" m SET "department_id" = d."id" FROM "departments" d WHERE d."company_id" = m."company_id";--> statement-breakpoint
UPDATE "company_members" m SET "role_id" = r."id" FROM "roles" r WHERE r."company_id" = m."company_id" AND m."is_admin";
