CREATE TABLE "audit_heads" (
	"company_id" bigint PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
-- Each company's head from its chain as it stands: the entry with the highest seq.
INSERT INTO "audit_heads" ("company_id", "seq", "prev_hash", "hash")
SELECT DISTINCT ON ("company_id") "company_id", "seq", "prev_hash", "hash"
FROM "audit_log" ORDER BY "company_id", "seq" DESC;
