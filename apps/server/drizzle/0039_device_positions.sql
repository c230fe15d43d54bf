CREATE TABLE "device_positions" (
	"device_id" bigint NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	CONSTRAINT "device_positions_device_id_ts_pk" PRIMARY KEY("device_id","ts")
);
