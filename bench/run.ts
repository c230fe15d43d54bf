/**
 * `npm run bench`: prints the figures the telemetry issue sets goals for, for the embedded
 * default and, when a PostgreSQL server answers (BENCH_DATABASE_URL, default the local one), for
 * PostgreSQL. Figures, not pass/fail: the goals are printed beside them.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/client';
import { benchAlarmLatency } from './alarm-latency.bench';
import { API_CONNECTIONS, benchApi, type CallFigures } from './api.bench';
import { benchConsoleWeight, type PageLoad } from './console-weight.bench';
import { benchDbCalls } from './db-calls.bench';
import { benchFleet, fleetsFromEnv } from './fleet.bench';
import { benchFleetCluster } from './fleet-cluster.bench';
import { consoleOptionsFromEnv } from './fleet-console';
import { benchHistory } from './history.bench';
import { benchIngest, type IngestFigures } from './ingest.bench';
import { type CeilingFigures, embeddedCeiling, postgresCeiling } from './ingest-ceiling';
import { pushFigures } from './push.bench';
import { reportFigures } from './report.bench';
import { benchStart, type StartFigures } from './start.bench';

const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
/**
 * `npm run bench -- api` (or `BENCH_ONLY=api`; ingest, alarm, history, console, api, calls, fleet,
 * report, push, start; a comma list) runs only those parts. `calls`, `fleet`, `report`, `push` and
 * `start` run only when named.
 */
const only = new Set(
  (process.argv[2] ?? process.env.BENCH_ONLY ?? 'ingest,alarm,history,console,api')
    .split(',')
    .map((s) => s.trim()),
);
/** BENCH_EMBEDDED_ONLY=1 leaves PostgreSQL out even when a server answers. */
const withPostgres = process.env.BENCH_EMBEDDED_ONLY !== '1';

async function freshPostgres(): Promise<{ url: string; drop: () => Promise<void> } | null> {
  if (!withPostgres) return null;
  const admin = new pg.Client({ connectionString: serverUrl });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const name = `cc_bench_${randomBytes(4).toString('hex')}`;
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

async function main() {
  console.log(`# ColdChain benchmarks (${new Date().toISOString()}, ${seconds} s ingest runs)\n`);
  if (only.has('ingest')) await ingestFigures();
  if (only.has('alarm')) await alarmFigures();
  if (only.has('history')) await historyFigures();
  if (only.has('console')) await consoleFigures();
  if (only.has('api')) await apiFigures();
  if (only.has('calls')) await callFigures();
  if (only.has('fleet')) await fleetFigures();
  if (only.has('report')) await reportFigures();
  if (only.has('push')) await pushFigures();
  if (only.has('start')) await startFigures();
}

async function startFigures() {
  const runs = Number(process.env.BENCH_START_RUNS ?? 3);
  const idleS = Number(process.env.BENCH_START_IDLE_SECONDS ?? 20);
  console.log(
    `\n## Start as \`npm start\` runs it, embedded default with the demo, ${runs} new data directories, each started twice (goals: first answer within 10 s on a new directory, 3 s on a restart; at most 300 MB resident when idle)`,
  );
  const { first, restart } = await benchStart({ runs, idleS });
  const line = (label: string, f: StartFigures) =>
    console.log(
      `- ${label}: first answer after ${f.firstAnswerS.toFixed(2)} s (${f.cpuS.toFixed(2)} s of CPU), peak ${f.peakMb} MB${f.seedPeakMb ? ` (the seeding process: ${f.seedPeakMb} MB)` : ''}, ${f.idleMb} MB resident after ${idleS} s idle`,
    );
  first.forEach((f, i) => {
    line(`new data directory ${i + 1}`, f);
    line(`restart ${i + 1}`, restart[i] as StartFigures);
  });
}

/** Not in the default set: it provisions tens of thousands of devices (see fleet.bench.ts). */
async function fleetFigures() {
  const fleetSeconds = Number(process.env.BENCH_FLEET_SECONDS ?? 60);
  /** BENCH_FLEET_PATHS: `embedded`, `cluster` (PostgreSQL, two instances, Mosquitto) or both. */
  const paths = new Set((process.env.BENCH_FLEET_PATHS ?? 'embedded,cluster').split(','));
  if (paths.has('embedded'))
    console.log(
      `\n## Fleet: many devices, one reading each per interval, MQTT QoS 1, ${fleetSeconds} s measured (goals: server at most 25% of one core, PUBACK p99 100 ms or less, no stall; after a restart the whole fleet back within 60 s, no acknowledgement over 1 s)`,
    );
  for (const { devices, intervalS } of paths.has('embedded') ? fleetsFromEnv() : []) {
    const f = await benchFleet(`${devices} devices every ${intervalS} s, embedded`, {
      devices,
      intervalS,
      seconds: fleetSeconds,
      restart: process.env.BENCH_FLEET_RESTART !== '0',
      keepDir: process.env.BENCH_FLEET_DIR
        ? `${process.env.BENCH_FLEET_DIR}/${devices}x${intervalS}`
        : undefined,
      console: consoleOptionsFromEnv(),
    });
    const s = f.steady;
    console.log(
      `- ${f.label}: server CPU ${(f.serverCpu * 100).toFixed(1)}% of a core (devices ${(f.devicesCpu * 100).toFixed(1)}%), RSS ${f.rssMb} MB (${f.rssPerDeviceKb} KB a device over the server before they connected), ${f.messagesPerSecond} msg/s, PUBACK p50 ${s.p50Ms} ms, p99 ${s.p99Ms} ms, max ${s.maxMs} ms, ${s.overOneSecond} over 1 s, ${f.dropped} connections lost; worst per 5 s: ${f.worstPerSlice.join(' ')} ms; connected in ${f.connectSeconds} s${f.provisionSeconds === null ? '' : `, provisioned in ${f.provisionSeconds} s`}`,
    );
    if (f.alarm)
      console.log(
        `  alarm under this load: p50 ${f.alarm.p50Ms} ms, p99 ${f.alarm.p99Ms} ms, max ${f.alarm.maxMs} ms (${f.alarm.acks} samples, ${f.alarm.missed} missed)`,
      );
    if (f.console) {
      const { connections, calls, fleet } = f.console;
      console.log(`  the console beside the fleet, ${connections} connections a call:`);
      for (const c of calls)
        console.log(
          `  - ${c.label}: ${c.requestsPerSecond} req/s, p50 ${c.p50Ms} ms, p99 ${c.p99Ms} ms${c.failures ? ` (${c.failures} answers not ok)` : ''}`,
        );
      console.log(
        `  - the fleet meanwhile: PUBACK p50 ${fleet.p50Ms} ms, p99 ${fleet.p99Ms} ms, max ${fleet.maxMs} ms, ${fleet.overOneSecond} over 1 s`,
      );
    }
    if (f.restart) {
      const r = f.restart;
      console.log(
        `  restart: all offline after ${r.offlineSeconds} s; every device connected again after ${r.connectedSeconds} s and acknowledged ${Number.isNaN(r.absorbedSeconds) ? `not within 60 s (${r.notBack} missing)` : `after ${r.absorbedSeconds} s`}, all online after ${r.onlineSeconds} s; PUBACK p50 ${r.latency.p50Ms} ms, p99 ${r.latency.p99Ms} ms, max ${r.latency.maxMs} ms, ${r.latency.overOneSecond} over 1 s`,
      );
    }
  }
  if (!paths.has('cluster')) return;
  console.log(
    `\n## Fleet on PostgreSQL, two instances behind an external Mosquitto (goals: alarm p99 under 200 ms, RSS under 1.5 GB, every reading stored)`,
  );
  for (const { devices, intervalS } of fleetsFromEnv()) {
    const database = await freshPostgres();
    if (!database) {
      console.log('- no PostgreSQL answers at BENCH_DATABASE_URL: left out');
      return;
    }
    try {
      const c = await benchFleetCluster(`${devices} devices every ${intervalS} s, PostgreSQL x2`, {
        devices,
        intervalS,
        seconds: fleetSeconds,
        databaseUrl: database.url,
      });
      console.log(
        `- ${c.label}: ${c.sentPerSecond} readings/s published, ${c.storedPerSecond} stored; instances CPU ${(c.cpuPerThousand * 100).toFixed(1)}% of a core per 1,000 devices, RSS ${c.rssMb.join(' + ')} MB (${c.rssPerThousandMb} MB per 1,000 devices); Mosquitto CPU ${(c.brokerCpu * 100).toFixed(1)}%, RSS ${c.brokerRssMb} MB; alarm p50 ${c.alarm.p50Ms} ms, p99 ${c.alarm.p99Ms} ms, max ${c.alarm.maxMs} ms (${c.alarm.acks} samples, ${c.alarm.missed} missed); connected in ${c.connectSeconds} s; after a broker restart every device connected after ${c.reconnectSeconds} s and acknowledged ${Number.isNaN(c.ackedSeconds) ? `not within 120 s (${c.notBack} missing)` : `after ${c.ackedSeconds} s`}`,
      );
    } finally {
      await database.drop();
    }
  }
}

async function apiFigures() {
  const apiSeconds = Number(process.env.BENCH_API_SECONDS ?? 5);
  const print = (ceiling: number, calls: CallFigures[]) => {
    console.log(`- bare Node HTTP server, same run: ${ceiling} req/s`);
    for (const call of calls) {
      const failures = call.failures ? ` (${call.failures} answers not ok)` : '';
      console.log(
        `- ${call.label}: ${call.requestsPerSecond} req/s, p50 ${call.p50Ms} ms, p99 ${call.p99Ms} ms, ${(call.share * 100).toFixed(1)}% of bare, server ${call.serverCpuUsPerRequest} µs of CPU a request${failures}`,
      );
    }
  };
  const goals = 'goals: reads 10% of the bare server with p99 50 ms or less, writes 5%, /healthz 40%';
  console.log(
    `\n## Console calls, ${API_CONNECTIONS} connections, ${apiSeconds} s each, embedded default with the demo (${goals})`,
  );
  const embedded = await benchApi({ seconds: apiSeconds });
  print(embedded.ceiling, embedded.calls);
  const database = await freshPostgres();
  if (!database) {
    console.log('- PostgreSQL: skipped (no server at BENCH_DATABASE_URL, or BENCH_EMBEDDED_ONLY=1)');
    return;
  }
  console.log(`\n## Console calls, the same on PostgreSQL with the demo (${goals})`);
  try {
    const onPostgres = await benchApi({ seconds: apiSeconds, databaseUrl: database.url });
    print(onPostgres.ceiling, onPostgres.calls);
  } finally {
    await database.drop();
  }
}

/** Not in the default set: a floor to read the other figures by, not a goal of its own. */
async function callFigures() {
  console.log(
    "\n## The embedded database's cost per call (PGlite in memory; mean wall time, no goal: the floor under every statement)",
  );
  for (const cost of await benchDbCalls()) console.log(`- ${cost.label}: ${cost.micros} µs`);
}

async function consoleFigures() {
  console.log(
    '\n## Console first visit: compressed JavaScript and Largest Contentful Paint, headless Chromium (goals: /login 150 KB or less, LCP 1.0 s; mobile 2.5 s; /home after login 1.5 s)',
  );
  const figures = await benchConsoleWeight();
  const line = (label: string, load: PageLoad) =>
    console.log(
      `- ${label}: ${Math.round(load.scriptBytes / 1024)} KB of JavaScript in ${load.scripts} scripts, LCP ${load.lcpMs} ms (median of ${load.lcpRunsMs.join(', ')}), getUserPowers x${load.powersCalls}`,
    );
  line('/login, cold', figures.loginCold);
  line('/login, cold, mobile profile', figures.loginMobile);
  line('/home after login', figures.homeAfterLogin);
}

/** Where the CPU of an ingest run went: on 2 cores the load generator competes with the server. */
const ingestCpu = (f: IngestFigures) =>
  `server ${f.serverCpuUsPerMessage} µs of CPU a message (${f.serverCores} cores), load generator ${f.clientCpuUsPerMessage} µs`;

/** Ingest's share of the database's own bulk load in the same run (issue 23's goal: 40 %). */
const ofCeiling = (readingsPerSecond: number, ceiling: CeilingFigures) =>
  `${((100 * readingsPerSecond) / ceiling.rowsPerSecond).toFixed(1)}% of the database's own COPY, ${ceiling.rowsPerSecond} rows/s (loads ${ceiling.runs.join(', ')})`;

async function ingestFigures() {
  console.log(
    "## Ingest: acknowledged readings per second, MQTT QoS 1, full path, beside the database's own bulk load (goals: 40% of it on both databases; 25k single-reading messages/s embedded)",
  );
  const embeddedCopy = await embeddedCeiling();
  // Batches as a logger's buffered upload (back-filled, the heaviest path), then as loggers
  // reporting now (ingest.bench.ts, `ReadingTimes`).
  for (const times of ['backfill', 'live'] as const) {
    const embedded = await benchIngest('embedded (PGlite)', {}, { seconds, times });
    console.log(
      `- ${embedded.label}: ${embedded.readingsPerSecond} readings/s (${embedded.messagesPerSecond} messages/s; ${embedded.shape}; ${ingestCpu(embedded)})`,
    );
    console.log(`  ${ofCeiling(embedded.readingsPerSecond, embeddedCopy)}`);
  }
  // One reading a message is a logger reporting as it measures: dated now is the goal's case.
  for (const times of ['live', 'backfill'] as const) {
    const single = await benchIngest(
      'embedded (PGlite), one reading per message',
      {},
      { seconds: Math.max(3, seconds / 2), recordsPerMessage: 1, times },
    );
    console.log(
      `- ${single.label}: ${single.readingsPerSecond} readings/s (${single.messagesPerSecond} messages/s; ${single.shape}; ${ingestCpu(single)})`,
    );
  }
  const pgIngest = await freshPostgres();
  if (pgIngest) {
    try {
      const figures = await benchIngest('PostgreSQL', { DATABASE_URL: pgIngest.url }, { seconds });
      const copy = await postgresCeiling(pgIngest.url);
      console.log(
        `- ${figures.label}: ${figures.readingsPerSecond} readings/s (${figures.messagesPerSecond} messages/s; ${figures.shape}; ${ingestCpu(figures)})`,
      );
      console.log(`  ${ofCeiling(figures.readingsPerSecond, copy)}`);
    } finally {
      await pgIngest.drop();
    }
  } else console.log('- PostgreSQL: skipped (no server at BENCH_DATABASE_URL)');
}

async function alarmFigures() {
  console.log(
    '\n## Alarm latency: MQTT publish to live socket message, with ~10k readings/s of background load (goal: p50 20 ms or less, p99 100 ms or less)',
  );
  const latencyRuns: [string, Record<string, string>][] = [['embedded (PGlite)', {}]];
  const pgLatency = await freshPostgres();
  if (pgLatency) latencyRuns.push(['PostgreSQL', { DATABASE_URL: pgLatency.url }]);
  try {
    for (const [label, env] of latencyRuns) {
      const a = await benchAlarmLatency(label, env);
      console.log(
        `- ${a.label}: p50 ${a.p50Ms} ms, p99 ${a.p99Ms} ms, max ${a.maxMs} ms (${a.samples} alarms; background ${a.backgroundReadingsPerSecond} readings/s acknowledged)`,
      );
    }
  } finally {
    await pgLatency?.drop();
  }
}

async function historyFigures() {
  console.log(
    '\n## historyData over a year of 5-minute readings, maxPoints 1000 (goal: p95 15 ms or less); bytes per reading (goal: 60 or less)',
  );
  const local = await openDatabase({});
  const h = await benchHistory('embedded (PGlite)', local);
  await local.close();
  console.log(
    `- ${h.label}: p50 ${h.p50Ms} ms, p95 ${h.p95Ms} ms (${h.points} points); all 105120 points p95 ${h.fullYearP95Ms} ms; ${h.bytesPerReading} bytes/reading (${h.bytesPerReadingWithoutRollup} without the rollups)`,
  );
  const pgHistory = await freshPostgres();
  if (pgHistory) {
    try {
      const database = await openDatabase({ url: pgHistory.url });
      const figures = await benchHistory('PostgreSQL', database);
      await database.close();
      console.log(
        `- ${figures.label}: p50 ${figures.p50Ms} ms, p95 ${figures.p95Ms} ms (${figures.points} points); all points p95 ${figures.fullYearP95Ms} ms; ${figures.bytesPerReading} bytes/reading (${figures.bytesPerReadingWithoutRollup} without the rollups)`,
      );
    } finally {
      await pgHistory.drop();
    }
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
