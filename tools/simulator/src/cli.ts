import mqtt from 'mqtt';
import { ArgsError, parseArgs, type SimulatorArgs } from './args';
import { FREEZER, FRIDGE } from './curve';
import { recordAt, type SimulatedDevice } from './payload';

/**
 * `npm run simulate -- --devices N --interval 5s [--mqtt URL | --http URL] [--serials ..] [--keys ..]`
 * Each simulated logger connects with its serial and key and sends one record per interval.
 */
function fleet(args: SimulatorArgs): SimulatedDevice[] {
  return args.serials.slice(0, args.devices).map((serial, i) => ({
    serial,
    key: args.keys[i] ?? '',
    profile: i % 4 === 3 ? FREEZER : FRIDGE,
    seed: 1000 + i,
    channelCount: i % 4 === 3 ? 1 : 2,
  }));
}

async function runMqtt(url: string, devices: SimulatedDevice[], intervalMs: number) {
  for (const device of devices) {
    const client = mqtt.connect(url, {
      clientId: device.serial,
      username: device.serial,
      password: device.key,
      reconnectPeriod: 5_000,
    });
    client.on('error', (error) => {
      const refused = /not authorized|bad user/i.test(error.message);
      console.error(
        refused
          ? `${device.serial}: the platform refused the device (unknown serial or wrong key). Add it in the console and pass its key with --keys.`
          : `${device.serial}: ${error.message}`,
      );
    });
    setInterval(() => {
      if (!client.connected) return;
      client.publish(
        `cc/v1/${device.serial}/up`,
        JSON.stringify({ records: [recordAt(device, Date.now())] }),
        { qos: 1 },
      );
    }, intervalMs);
  }
}

async function runHttp(url: string, devices: SimulatedDevice[], intervalMs: number) {
  setInterval(async () => {
    for (const device of devices) {
      const auth = Buffer.from(`${device.serial}:${device.key}`).toString('base64');
      try {
        const response = await fetch(new URL('/device/v1/up', url), {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Basic ${auth}` },
          body: JSON.stringify({ records: [recordAt(device, Date.now())] }),
        });
        if (!response.ok) console.error(`${device.serial}: HTTP ${response.status} ${await response.text()}`);
      } catch (error) {
        console.error(`${device.serial}: ${(error as Error).message}`);
      }
    }
  }, intervalMs);
}

try {
  const args = parseArgs(process.argv.slice(2));
  const devices = fleet(args);
  console.log(
    `simulating ${devices.length} logger(s) every ${args.intervalMs} ms via ${args.httpUrl ?? args.mqttUrl}`,
  );
  if (args.httpUrl) await runHttp(args.httpUrl, devices, args.intervalMs);
  else await runMqtt(args.mqttUrl!, devices, args.intervalMs);
} catch (error) {
  if (error instanceof ArgsError) {
    console.error(error.message);
    process.exit(2);
  }
  throw error;
}
