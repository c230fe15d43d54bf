CREATE TABLE "readings_hourly" (
	"sensor_id" bigint NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"n" integer NOT NULL,
	"sum" double precision NOT NULL,
	"expsum" double precision NOT NULL,
	"min" real NOT NULL,
	"min_ts" timestamp with time zone NOT NULL,
	"max" real NOT NULL,
	"max_ts" timestamp with time zone NOT NULL,
	CONSTRAINT "readings_hourly_sensor_id_bucket_pk" PRIMARY KEY("sensor_id","bucket")
);
