import mqtt from 'mqtt';
import { ArgsError, parseArgs, type SimulatorArgs } from './args';
import { FREEZER, FRIDGE } from './curve';
import { DeviceRunner, type Outbound } from './device-runner';
import { TYPICAL_OUTAGES } from './outages';
import { answerParameterRequest, DEFAULT_PARAMETERS } from './parameters';
import type { SimulatedDevice } from './payload';

/**
 * `npm run simulate -- --devices N --interval 5s [--mqtt URL | --http URL] [--serials ..] [--keys ..] [--outages on|off]`
 * Each simulated logger connects with its serial and key and sends one record per interval,
 * with power cuts and network losses (back-filled on return) unless `--outages off`.
 */
function fleet(args: SimulatorArgs): SimulatedDevice[] {
  return args.serials.slice(0, args.devices).map((serial, i) => ({
    serial,
    key: args.keys[i] ?? '',
    profile: i % 4 === 3 ? FREEZER : FRIDGE,
    seed: 1000 + i,
    channelCount: i % 4 === 3 ? 1 : 2,
    outages: args.outages ? TYPICAL_OUTAGES : undefined,
  }));
}

type Send = (runner: DeviceRunner, out: Outbound) => Promise<void>;

function mqttSender(url: string, runners: DeviceRunner[]): Send {
  const clients = new Map(
    runners.map((runner) => {
      const { serial, key } = runner.device;
      const client = mqtt.connect(url, {
        clientId: serial,
        username: serial,
        password: key,
        reconnectPeriod: 5_000,
      });
      client.on('error', (error) => {
        const refused = /not authorized|bad user/i.test(error.message);
        console.error(
          refused
            ? `${serial}: the platform refused the device (unknown serial or wrong key). Add it in the console and pass its key with --keys.`
            : `${serial}: ${error.message}`,
        );
      });
      // Answers parameter reads and pushes on cc/v1/<serial>/down (docs/device-protocol.md).
      let parameters = DEFAULT_PARAMETERS;
      client.on('connect', () => client.subscribe(`cc/v1/${serial}/down`, { qos: 1 }));
      client.on('message', (topic, payload) => {
        if (topic !== `cc/v1/${serial}/down`) return;
        const answer = answerParameterRequest(parameters, payload.toString());
        parameters = answer.parameters;
        if (answer.ack) {
          client.publish(`cc/v1/${serial}/ack`, JSON.stringify(answer.ack), { qos: 1 });
          console.log(`${serial}: answered parameter request ${answer.ack.requestId} (ok: ${answer.ack.ok})`);
        }
      });
      return [serial, client] as const;
    }),
  );
  return async (runner, out) => {
    const client = clients.get(runner.device.serial)!;
    if (!client.connected) throw new Error('not connected');
    const serial = runner.device.serial;
    for (const event of out.events)
      await client.publishAsync(`cc/v1/${serial}/event`, JSON.stringify(event), { qos: 1 });
    await client.publishAsync(`cc/v1/${serial}/up`, JSON.stringify({ records: out.records }), { qos: 1 });
  };
}

function httpSender(baseUrl: string): Send {
  return async (runner, out) => {
    const { serial, key } = runner.device;
    const headers = {
      'content-type': 'application/json',
      authorization: `Basic ${Buffer.from(`${serial}:${key}`).toString('base64')}`,
    };
    for (const event of out.events) {
      await fetch(new URL('/device/v1/event', baseUrl), {
        method: 'POST',
        headers,
        body: JSON.stringify(event),
      });
    }
    const response = await fetch(new URL('/device/v1/up', baseUrl), {
      method: 'POST',
      headers,
      body: JSON.stringify({ records: out.records }),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status} ${await response.text()}`);
  };
}

try {
  const args = parseArgs(process.argv.slice(2));
  const runners = fleet(args).map((d) => new DeviceRunner(d));
  const transport = args.httpUrl ?? args.mqttUrl!;
  console.log(`simulating ${runners.length} logger(s) every ${args.intervalMs} ms via ${transport}`);
  const send = args.httpUrl ? httpSender(args.httpUrl) : mqttSender(args.mqttUrl!, runners);
  const tick = () => {
    const now = Date.now();
    for (const runner of runners) {
      const out = runner.tick(now);
      if (!out) continue;
      send(runner, out).then(
        () => {
          if (out.records.length > 1)
            console.log(`${runner.device.serial}: back-filled ${out.records.length - 1} record(s)`);
        },
        (error: Error) => {
          runner.requeue(out.records);
          console.error(`${runner.device.serial}: ${error.message}; will retry`);
        },
      );
    }
  };
  tick();
  setInterval(tick, args.intervalMs);
} catch (error) {
  if (error instanceof ArgsError) {
    console.error(error.message);
    process.exit(2);
  }
  throw error;
}
