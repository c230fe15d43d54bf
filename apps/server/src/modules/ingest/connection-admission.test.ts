import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionAdmission, type IngestPressure } from './connection-admission';
import { startEmbeddedBroker } from './embedded-broker';

/** Ingest as admission sees it, driven by the test: how long its oldest message waits, and batches written. */
function fakeIngest() {
  const listeners = new Set<() => void>();
  const state = { waitMs: 0, idle: true };
  return {
    set waitMs(ms: number) {
      state.waitMs = ms;
    },
    oldestWaitMs: () => state.waitMs,
    isIdle: () => state.idle,
    set idle(idle: boolean) {
      state.idle = idle;
    },
    onBatchWritten(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    batchWritten() {
      for (const listener of listeners) listener();
    },
  };
}

/** Starts `count` admissions and answers, after the current microtasks, how many went through. */
async function admitted(admission: ConnectionAdmission, count: number) {
  let through = 0;
  const all = Array.from({ length: count }, () => admission.admit().then(() => through++));
  await new Promise((r) => setImmediate(r));
  return { through: () => through, all };
}

describe('connection admission (CONNACKs paced to what ingest absorbs)', () => {
  const opened: ConnectionAdmission[] = [];
  const admissionOf = (ingest: IngestPressure, idleRefillMs = 60_000) => {
    const a = new ConnectionAdmission(ingest, { perBatch: 3, maxWaitMs: 100, idleRefillMs });
    opened.push(a);
    return a;
  };
  afterEach(() => {
    for (const a of opened.splice(0)) a.close();
  });

  it('admits at once while ingest keeps up, then a batch’s worth of devices per batch written', async () => {
    const ingest = fakeIngest();
    const admission = admissionOf(ingest);
    const first = await admitted(admission, 5);
    expect(first.through()).toBe(3);
    expect(admission.queued).toBe(2);
    ingest.batchWritten();
    await new Promise((r) => setImmediate(r));
    expect(first.through()).toBe(5);
    expect(admission.queued).toBe(0);
  });

  it('admits nobody while a message has waited too long for its transaction, whatever the allowance', async () => {
    const ingest = fakeIngest();
    const admission = admissionOf(ingest);
    ingest.waitMs = 500;
    const held = await admitted(admission, 2);
    expect(held.through()).toBe(0);
    ingest.batchWritten();
    await new Promise((r) => setImmediate(r));
    expect(held.through()).toBe(0);
    // The queue has caught up: the next batch lets them in.
    ingest.waitMs = 20;
    ingest.batchWritten();
    await Promise.all(held.all);
    expect(held.through()).toBe(2);
  });

  it('with ingest idle (admitted devices sending nothing), the allowance comes back on its own; not while a batch is in flight', async () => {
    const ingest = fakeIngest();
    ingest.idle = false;
    const admission = admissionOf(ingest, 20);
    const waiting = await admitted(admission, 7);
    expect(waiting.through()).toBe(3);
    await new Promise((r) => setTimeout(r, 100));
    expect(waiting.through()).toBe(3);
    ingest.idle = true;
    await Promise.all(waiting.all);
    expect(waiting.through()).toBe(7);
  });

  it('the broker holds a device’s CONNACK until it is admitted, then it connects', async () => {
    const ingest = fakeIngest();
    ingest.waitMs = 1_000;
    const broker = await startEmbeddedBroker(0, '127.0.0.1', {
      authenticate: async (serial, key) => serial === 'SIM9002' && key === 'k2',
      admission: admissionOf(ingest),
    });
    try {
      let connected = false;
      const client = mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
        clientId: 'SIM9002',
        username: 'SIM9002',
        password: 'k2',
        reconnectPeriod: 0,
      });
      void client.then(() => {
        connected = true;
      });
      await new Promise((r) => setTimeout(r, 300));
      expect(connected).toBe(false);
      ingest.waitMs = 0;
      ingest.batchWritten();
      const device = await client;
      expect(device.connected).toBe(true);
      await device.endAsync();
    } finally {
      await broker.close();
    }
  });
});
