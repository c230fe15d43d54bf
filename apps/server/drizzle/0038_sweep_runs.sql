CREATE TABLE "sweep_runs" (
	"name" text PRIMARY KEY NOT NULL,
	"slot" bigint NOT NULL,
	"owner" text NOT NULL,
	"ran_at" timestamp with time zone NOT NULL
);
