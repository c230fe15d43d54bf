CREATE TABLE "address_login_codes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"code_hash" text NOT NULL,
	"user_id" bigint NOT NULL,
	"company_id" bigint,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inactivity_warnings" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"warned_at" timestamp with time zone NOT NULL,
	"cancelled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "known_login_places" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "qr_login_tickets" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"ticket_hash" text NOT NULL,
	"state" text DEFAULT 'waiting' NOT NULL,
	"user_id" bigint,
	"ip" text DEFAULT '' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "password_renewal" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "scope" text DEFAULT 'full' NOT NULL;--> statement-breakpoint
ALTER TABLE "address_login_codes" ADD CONSTRAINT "address_login_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inactivity_warnings" ADD CONSTRAINT "inactivity_warnings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "known_login_places" ADD CONSTRAINT "known_login_places_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qr_login_tickets" ADD CONSTRAINT "qr_login_tickets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "address_login_codes_hash_key" ON "address_login_codes" USING btree ("code_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "known_login_places_key" ON "known_login_places" USING btree ("user_id","kind","value");--> statement-breakpoint
CREATE UNIQUE INDEX "qr_login_tickets_hash_key" ON "qr_login_tickets" USING btree ("ticket_hash");--> statement-breakpoint
CREATE INDEX "qr_login_tickets_expires_idx" ON "qr_login_tickets" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "login_log_account_time_idx" ON "login_log" USING btree ("account","created_at");