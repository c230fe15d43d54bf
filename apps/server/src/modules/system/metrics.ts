import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * What the gauges read at scrape time. Passed in as functions so this module imports no other
 * module (no cycles); metrics.routes.ts wires them to the app.
 */
export interface MetricSources {
  socketCount(): number;
  /** Queued jobs that are due, and how long the oldest of them has waited (s); null if unknown. */
  jobQueue(): Promise<{ depth: number; oldestAgeSeconds: number } | null>;
  /** Devices whose CONNACK the embedded broker holds until ingest catches up. */
  connectsWaiting(): number;
  /** node-postgres pool counts; null on the embedded database (one connection). */
  pool(): { total: number; idle: number; waiting: number } | null;
}

/**
 * The platform's metrics in a registry of their own (not prom-client's global one), so every app
 * (tests build several) has its own. Hot-path instruments are incremented once per batch or
 * delivery, never per reading; gauges are read only when Prometheus scrapes.
 */
export function createPlatformMetrics(sources: MetricSources, { processMetrics = true } = {}) {
  const registry = new Registry();
  // Process CPU, memory, handles, GC and event-loop lag (nodejs_eventloop_lag_*). They start an
  // event-loop monitor and a GC observer, so an app whose /metrics is off does without them.
  if (processMetrics) collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const readingsStored = new Counter({
    name: 'coldchain_readings_stored_total',
    help: 'Readings newly stored by ingest (MQTT and HTTP); repeats of stored readings are not counted.',
    registers,
  });
  const ingestBatchMessages = new Histogram({
    name: 'coldchain_ingest_batch_messages',
    help: 'Device messages written per ingest transaction.',
    buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000],
    registers,
  });
  const alarmJudgingSeconds = new Histogram({
    name: 'coldchain_alarm_judging_seconds',
    help: "Duration of judging one ingest batch's readings against the alarm rules, inside its transaction (the readings carry no receipt time).",
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers,
  });
  const alarmDeliveries = new Counter({
    name: 'coldchain_alarm_deliveries_total',
    help: 'Alarm message delivery attempts by channel and recorded outcome (sent, retrying, failed, no credit, ...).',
    labelNames: ['channel', 'outcome'] as const,
    registers,
  });
  new Gauge({
    name: 'coldchain_live_sockets',
    help: 'Open live-channel sockets (console pages) on this instance.',
    registers,
    collect() {
      this.set(sources.socketCount());
    },
  });
  new Gauge({
    name: 'coldchain_mqtt_connects_waiting',
    help: 'Devices whose CONNACK the embedded broker holds until ingest has caught up (a fleet back after a restart).',
    registers,
    collect() {
      this.set(sources.connectsWaiting());
    },
  });
  // Both queue gauges are collected concurrently in one scrape: they share one query.
  let queueRead: ReturnType<MetricSources['jobQueue']> | null = null;
  const readQueue = () =>
    (queueRead ??= sources.jobQueue().finally(() => {
      queueRead = null;
    }));
  new Gauge({
    name: 'coldchain_job_queue_depth',
    help: 'Background jobs queued and due (status queued, run_at reached).',
    registers,
    async collect() {
      const queue = await readQueue();
      if (queue) this.set(queue.depth);
    },
  });
  new Gauge({
    name: 'coldchain_job_queue_oldest_age_seconds',
    help: 'Seconds the oldest due queued background job has waited (0 when none).',
    registers,
    async collect() {
      const queue = await readQueue();
      if (queue) this.set(queue.oldestAgeSeconds);
    },
  });
  new Gauge({
    name: 'coldchain_db_pool_connections',
    help: 'Database connections by state (total, idle, waiting clients); the embedded database has one connection: total 1.',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const pool = sources.pool() ?? { total: 1, idle: 0, waiting: 0 };
      this.set({ state: 'total' }, pool.total);
      this.set({ state: 'idle' }, pool.idle);
      this.set({ state: 'waiting' }, pool.waiting);
    },
  });

  return {
    registry,
    /** Ingest's hook: one call per committed transaction. */
    observeIngestBatch(messages: number, stored: number) {
      ingestBatchMessages.observe(messages);
      if (stored > 0) readingsStored.inc(stored);
    },
    observeAlarmJudging(seconds: number) {
      alarmJudgingSeconds.observe(seconds);
    },
    observeDelivery(channel: string, outcome: string) {
      alarmDeliveries.inc({ channel, outcome });
    },
  };
}

export type PlatformMetrics = ReturnType<typeof createPlatformMetrics>;
