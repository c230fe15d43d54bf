ALTER TABLE "push_outbox" ALTER COLUMN "payload" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "push_outbox" ADD COLUMN "reading_sensors" bigint[];--> statement-breakpoint
ALTER TABLE "push_outbox" ADD COLUMN "reading_ts" timestamp with time zone[];--> statement-breakpoint
ALTER TABLE "push_outbox" ADD COLUMN "reading_values" real[];--> statement-breakpoint
-- The readings trigger aggregates each column in its own type: building JSON here (each time to
-- epoch seconds and each value to numeric) doubled what the trigger cost the ingest statement
-- (docs/benchmarks.md, "Push docking"). The router builds the JSON, off the ingest path.
CREATE OR REPLACE FUNCTION push_outbox_readings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM push_urls WHERE state = 2 AND 'reading' = ANY(events)) THEN
    RETURN NULL;
  END IF;
  INSERT INTO push_outbox (company_id, device_id, event, reading_sensors, reading_ts, reading_values)
  SELECT 0, 0, 'reading', array_agg(n.sensor_id), array_agg(n.ts), array_agg(n.value)
  FROM new_rows n
  HAVING count(*) > 0;
  RETURN NULL;
END
$$;
