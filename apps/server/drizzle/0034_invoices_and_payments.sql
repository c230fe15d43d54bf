CREATE TABLE "credit_purchases" (
	"order_id" bigint PRIMARY KEY NOT NULL,
	"credits" integer NOT NULL,
	"ledger_id" bigint
);
--> statement-breakpoint
CREATE TABLE "order_payments" (
	"order_id" bigint PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"method" text,
	"proof_image" text,
	"checkout_session_id" text,
	"paid_at" timestamp with time zone,
	"due_date" date,
	"reject_reason" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_applications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"created_by" bigint,
	"department_id" bigint,
	"type" text NOT NULL,
	"title" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"taxpayer_id" text DEFAULT '' NOT NULL,
	"bank" text DEFAULT '' NOT NULL,
	"account" text DEFAULT '' NOT NULL,
	"company_address" text DEFAULT '' NOT NULL,
	"company_phone" text DEFAULT '' NOT NULL,
	"mailing_address" text DEFAULT '' NOT NULL,
	"postcode" text DEFAULT '' NOT NULL,
	"recipient" text DEFAULT '' NOT NULL,
	"contact" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"proof_image" text,
	"status" smallint DEFAULT 1 NOT NULL,
	"reject_reason" text,
	"pdf_file" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "invoice_orders" (
	"invoice_id" bigint NOT NULL,
	"order_id" bigint NOT NULL,
	"company_id" bigint NOT NULL,
	"live" boolean DEFAULT true NOT NULL,
	CONSTRAINT "invoice_orders_invoice_id_order_id_pk" PRIMARY KEY("invoice_id","order_id")
);
--> statement-breakpoint
ALTER TABLE "credit_purchases" ADD CONSTRAINT "credit_purchases_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "order_payments" ADD CONSTRAINT "order_payments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "order_payments" ADD CONSTRAINT "order_payments_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoice_applications" ADD CONSTRAINT "invoice_applications_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoice_orders" ADD CONSTRAINT "invoice_orders_invoice_id_invoice_applications_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoice_applications"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoice_orders" ADD CONSTRAINT "invoice_orders_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "order_payments_session_key" ON "order_payments" USING btree ("checkout_session_id");
--> statement-breakpoint
CREATE INDEX "invoice_applications_company_idx" ON "invoice_applications" USING btree ("company_id","created_at");
--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_orders_live_order_key" ON "invoice_orders" USING btree ("order_id") WHERE "invoice_orders"."live";
