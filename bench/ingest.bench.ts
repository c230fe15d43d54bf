/**
 * Acknowledged readings per second over MQTT QoS 1 through the full path: device -> embedded
 * broker -> validation -> batched transaction (readings, rollup, latest values, device state) ->
 * commit -> PUBACK. The server runs as `npm start` runs it, in its own process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import { freePort, postJson, startServerProcess } from '../apps/server/src/test/server-process';
import { cpuSeconds } from './process-cpu';

export interface IngestFigures {
  label: string;
  readingsPerSecond: number;
  messagesPerSecond: number;
  shape: string;
  /** The server process's CPU (both its threads) per acknowledged message, in µs, and as cores. */
  serverCpuUsPerMessage: number;
  serverCores: number;
  /** The load generator's (this process's) CPU per message, in µs: on 2 cores it competes. */
  clientCpuUsPerMessage: number;
}

/**
 * When the readings are dated. `backfill`: from 30 days back, a second apart, as a logger uploads
 * what it buffered; the heaviest path (every reading back-filled, its day already packed, so
 * checked against the packed readings, and judged for alarms as late data). `live`: from a minute
 * back, a millisecond apart per device, as loggers reporting now; no reading is late.
 */
export type ReadingTimes = 'backfill' | 'live';

export async function benchIngest(
  label: string,
  env: Record<string, string>,
  {
    devices = 10,
    seconds = 10,
    recordsPerMessage = 10,
    inFlight = 16,
    times = 'backfill' as ReadingTimes,
  } = {},
): Promise<IngestFigures> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cc-bench-'));
  const port = await freePort();
  const mqttPort = await freePort();
  const server = await startServerProcess({
    DATA_DIR: dataDir,
    DEMO: '1',
    PORT: String(port),
    MQTT_PORT: String(mqttPort),
    // A few devices stand for a fleet here: each sends far more than one logger's message rate.
    DEVICE_MESSAGES_PER_MINUTE: '100000000',
    ...env,
  });
  try {
    const { accessToken } = await postJson<{ accessToken: string }>(server.baseUrl, '/api/doLogin', {
      account: 'demo@example.com',
      password: 'Demo1234',
    });
    const fleet: { serial: string; key: string }[] = [];
    for (let i = 0; i < devices; i++) {
      const serial = `SIM${1001 + i}`;
      const { deviceKey } = await postJson<{ deviceKey: string }>(
        server.baseUrl,
        '/api/device/addDevice',
        { serial, name: `Bench ${serial}` },
        accessToken,
      );
      fleet.push({ serial, key: deviceKey });
    }
    const clients = await Promise.all(
      fleet.map((d) =>
        mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
          clientId: d.serial,
          username: d.serial,
          password: d.key,
          reconnectPeriod: 0,
        }),
      ),
    );
    const channelsPerRecord = 2;
    let readings = 0;
    let messages = 0;
    const base = times === 'live' ? Date.now() - 60_000 : Date.now() - 30 * 86_400_000;
    const step = times === 'live' ? 1 : 1000;
    // Per device: live readings a millisecond apart stay behind the clock at 2 500 a second each.
    const seqs = fleet.map(() => 0);
    const deadline = Date.now() + seconds * 1000;
    const started = Date.now();
    const serverCpuBefore = cpuSeconds(server.child.pid!);
    const clientCpuBefore = process.cpuUsage();
    await Promise.all(
      clients.flatMap((client, c) =>
        Array.from({ length: inFlight }, async () => {
          while (Date.now() < deadline) {
            const records = Array.from({ length: recordsPerMessage }, () => {
              const ts = base + seqs[c]!++ * step;
              return {
                ts,
                channels: [
                  { ch: 1, v: 4 + (ts % 300) / 100 },
                  { ch: 2, v: 55 },
                ],
              };
            });
            await client.publishAsync(`cc/v1/${fleet[c]!.serial}/up`, JSON.stringify({ records }), {
              qos: 1,
            });
            readings += recordsPerMessage * channelsPerRecord;
            messages++;
          }
        }),
      ),
    );
    const elapsed = (Date.now() - started) / 1000;
    const serverCpu = cpuSeconds(server.child.pid!) - serverCpuBefore;
    const clientCpuUsed = process.cpuUsage(clientCpuBefore);
    const clientCpu = (clientCpuUsed.user + clientCpuUsed.system) / 1e6;
    await Promise.all(clients.map((c) => c.endAsync()));
    return {
      label,
      readingsPerSecond: Math.round(readings / elapsed),
      messagesPerSecond: Math.round(messages / elapsed),
      shape: `${devices} devices, ${inFlight} in flight each, ${recordsPerMessage} records x ${channelsPerRecord} channels per message, ${times === 'live' ? 'dated now' : 'back-filled from 30 days ago'}`,
      serverCpuUsPerMessage: Math.round((serverCpu / messages) * 1e6),
      serverCores: Math.round((serverCpu / elapsed) * 100) / 100,
      clientCpuUsPerMessage: Math.round((clientCpu / messages) * 1e6),
    };
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((r) => server.child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
