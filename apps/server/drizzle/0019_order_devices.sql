CREATE TABLE "order_devices" (
	"order_id" bigint NOT NULL,
	"device_id" bigint NOT NULL,
	"company_id" bigint NOT NULL,
	CONSTRAINT "order_devices_order_id_device_id_pk" PRIMARY KEY("order_id","device_id")
);
--> statement-breakpoint
ALTER TABLE "order_devices" ADD CONSTRAINT "order_devices_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_devices" ADD CONSTRAINT "order_devices_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_devices_device_idx" ON "order_devices" USING btree ("device_id");--> statement-breakpoint
-- The devices of the orders placed before this migration, from their lines.
INSERT INTO "order_devices" ("order_id", "device_id", "company_id")
SELECT DISTINCT o."id", (line->>'deviceId')::bigint, o."company_id"
FROM "orders" o CROSS JOIN LATERAL jsonb_array_elements(o."lines") AS line
WHERE line->>'deviceId' IS NOT NULL;
