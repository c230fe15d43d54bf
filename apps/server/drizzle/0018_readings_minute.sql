CREATE TABLE "readings_minute" (
	"sensor_id" bigint NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"n" integer NOT NULL,
	"sum" double precision NOT NULL,
	"expsum" double precision NOT NULL,
	"min" real NOT NULL,
	"min_ts" timestamp with time zone NOT NULL,
	"max" real NOT NULL,
	"max_ts" timestamp with time zone NOT NULL,
	CONSTRAINT "readings_minute_sensor_id_bucket_pk" PRIMARY KEY("sensor_id","bucket")
);
--> statement-breakpoint
-- Minute rows for the last eight days of readings stored before this migration.
INSERT INTO "readings_minute" ("sensor_id", "bucket", "n", "sum", "expsum", "min", "min_ts", "max", "max_ts")
SELECT "sensor_id", date_bin('1 minute', "ts", timestamptz '2000-01-01 00:00:00+00'), count(*), sum("value"),
       sum(CASE WHEN "value" > -273 THEN exp(-(83144.0 / 8.3144598) / ("value"::float8 + 273.15)) ELSE 0 END),
       min("value"), (array_agg("ts" ORDER BY "value", "ts"))[1], max("value"), (array_agg("ts" ORDER BY "value" DESC, "ts"))[1]
FROM (
  SELECT "sensor_id", "ts", "value" FROM "readings" WHERE "ts" >= now() - interval '8 days'
  UNION ALL
  SELECT p."sensor_id", u."ts", u."value" FROM "readings_packed" p
  CROSS JOIN LATERAL unnest(p."ts", p."value") AS u("ts", "value")
  WHERE p."day" >= now() - interval '9 days' AND u."ts" >= now() - interval '8 days'
) r
GROUP BY 1, 2;
