/**
 * The database's own bulk-load rate: the ceiling issue 23 measures ingest against ("at least 40 %
 * of the same run's bulk-load ceiling"). COPY of readings in CSV into a table shaped as `readings`
 * (the same columns and primary key, not partitioned), nothing else: no broker, no validation, no
 * latest values, rollups or alarms. Several loads into an emptied table; the median is printed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { EMBEDDED_DATABASE_SETTINGS, settingsAsStartParams } from '../apps/server/src/db/pglite-settings';

export interface CeilingFigures {
  rowsPerSecond: number;
  runs: number[];
}

const TABLE = `create table ceiling_readings (
  sensor_id bigint not null,
  ts timestamp with time zone not null,
  value real not null,
  backfilled boolean not null default false,
  primary key (sensor_id, ts)
)`;

/** `rows` readings of 1 000 sensors, one a minute each from a fixed start, as COPY's CSV. */
function readingsCsv(rows: number): string {
  const start = Date.UTC(2026, 0, 1);
  const lines: string[] = [];
  for (let i = 0; i < rows; i++) {
    const sensor = (i % 1000) + 1;
    const ts = new Date(start + Math.floor(i / 1000) * 60_000).toISOString();
    lines.push(`${sensor},${ts},${(4 + (i % 17) / 10).toFixed(1)},f`);
  }
  return `${lines.join('\n')}\n`;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function measure(
  loads: number,
  rows: number,
  load: () => Promise<void>,
  empty: () => Promise<void>,
): Promise<CeilingFigures> {
  const runs: number[] = [];
  for (let i = 0; i < loads; i++) {
    await empty();
    const started = performance.now();
    await load();
    runs.push(Math.round(rows / ((performance.now() - started) / 1000)));
  }
  return { rowsPerSecond: median(runs), runs };
}

/**
 * The embedded database as the server opens it (a data directory on disk, the same settings), in
 * this process: PGlite's COPY from a blob.
 */
export async function embeddedCeiling({ rows = 200_000, loads = 3 } = {}): Promise<CeilingFigures> {
  const { PGlite } = await import('@electric-sql/pglite');
  const dir = mkdtempSync(path.join(tmpdir(), 'cc-ceiling-'));
  const db = new PGlite(path.join(dir, 'pgdata'), {
    startParams: settingsAsStartParams(PGlite.defaultStartParams, EMBEDDED_DATABASE_SETTINGS),
  });
  try {
    await db.waitReady;
    await db.exec(TABLE);
    const blob = new Blob([readingsCsv(rows)]);
    return await measure(
      loads,
      rows,
      async () => {
        await db.query(`copy ceiling_readings from '/dev/blob' with (format csv)`, [], { blob });
      },
      async () => {
        await db.exec('truncate ceiling_readings; checkpoint');
      },
    );
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A PostgreSQL database (the bench's fresh one): COPY FROM STDIN over one connection. */
export async function postgresCeiling(
  url: string,
  { rows = 200_000, loads = 3 } = {},
): Promise<CeilingFigures> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(TABLE);
    const csv = Buffer.from(readingsCsv(rows));
    return await measure(
      loads,
      rows,
      async () => {
        const copy = client.query(copyFrom('copy ceiling_readings from stdin with (format csv)'));
        await pipeline(
          (async function* () {
            yield csv;
          })(),
          copy,
        );
      },
      async () => {
        await client.query('truncate ceiling_readings');
        await client.query('checkpoint').catch(() => undefined);
      },
    );
  } finally {
    await client.query('drop table if exists ceiling_readings').catch(() => undefined);
    await client.end();
  }
}
