/**
 * One process of simulated loggers for the fleet benchmark (fleet.bench.ts): many MQTT 3.1.1
 * connections over plain sockets with mqtt-packet, far lighter than one mqtt.js client each, so
 * tens of thousands fit in a process beside the server on a small machine. Each device sends one
 * reading every `intervalMs` at QoS 1, at its own phase, and times each PUBACK. Driven by its
 * parent over IPC; answers each command once done.
 */
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import mqttPacket from 'mqtt-packet';

export interface FleetDevice {
  serial: string;
  key: string;
}

export type FleetCommand =
  | {
      cmd: 'setup';
      port: number;
      localAddresses: [string, string];
      devices: FleetDevice[];
      intervalMs: number;
    }
  | { cmd: 'connect'; concurrency: number }
  | { cmd: 'start' }
  | { cmd: 'stats' }
  | { cmd: 'silence' }
  | { cmd: 'reconnect' }
  | { cmd: 'exit' };

export interface FleetStats {
  /** PUBACK latencies (ms) since the last `stats`. */
  latencies: number[];
  sent: number;
  acked: number;
  /** Messages sent and not yet acknowledged, now. */
  waiting: number;
  /** The oldest unacknowledged message's age (ms), now: a stall shows here before its ack does. */
  oldestWaitingMs: number;
  connected: number;
  /** Connections closed by the server or refused since the last `stats`. */
  dropped: number;
  refused: number;
  /** Devices that have had at least one message acknowledged since the last `reconnect`. */
  ackedSinceReconnect: number;
}

interface Reading {
  ts: number;
  v: number;
}

interface Device extends FleetDevice {
  /** Its place in this process: its local port is FIRST_LOCAL_PORT + index. */
  index: number;
  socket: Socket | null;
  connected: boolean;
  nextId: number;
  /** messageId -> send time (performance.now()) and the readings it carries. */
  inFlight: Map<number, { at: number; readings: Reading[] }>;
  /** Readings not yet sent (kept while disconnected, sent as one message on reconnecting). */
  backlog: Reading[];
  ackedSinceReconnect: boolean;
  /** Its own local port was still held (a closing connection): the kernel picks one instead. */
  portTaken: boolean;
}

/**
 * Each device connects from a port of its own, below the kernel's ephemeral range (32768-60999
 * here) and the ports benchmarks listen on. Left to choose (port 0), the kernel searched the
 * ports in use of the local address for a free one on every connect: 10 000 devices took 32-38 s
 * to connect and the bench measured that search, not the server (docs/benchmarks.md).
 */
const FIRST_LOCAL_PORT = 10_000;

let port = 0;
/** One local address per connection round, alternating: a round never meets the previous one's closing connections. */
let localAddresses: [string, string] = ['127.0.0.1', '127.0.0.1'];
let round = 0;
let intervalMs = 10_000;
let devices: Device[] = [];
let latencies: number[] = [];
let sent = 0;
let acked = 0;
let dropped = 0;
let refused = 0;
let running = false;
let silenced = false;
const timers: NodeJS.Timeout[] = [];

function reading(): Reading {
  return { ts: Date.now(), v: Math.round((2 + Math.random() * 4) * 10) / 10 };
}

function publish(device: Device) {
  if (!device.connected || !device.socket) return;
  const readings = device.backlog.splice(0);
  if (readings.length === 0) return;
  const records = readings.map((r) => ({ ts: r.ts, channels: [{ ch: 1, v: r.v }] }));
  device.nextId = (device.nextId % 65_535) + 1;
  const messageId = device.nextId;
  device.inFlight.set(messageId, { at: performance.now(), readings });
  sent++;
  device.socket.write(
    mqttPacket.generate({
      cmd: 'publish',
      topic: `cc/v1/${device.serial}/up`,
      payload: JSON.stringify({ records }),
      qos: 1,
      messageId,
      retain: false,
      dup: false,
    }),
  );
}

function tick(device: Device) {
  device.backlog.push(reading());
  publish(device);
}

/** Opens a device's connection; resolves once the broker has answered the CONNECT (or closed it). */
function open(device: Device, ownPort = true): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect({
      host: '127.0.0.1',
      port,
      localAddress: localAddresses[round % 2],
      localPort: ownPort ? FIRST_LOCAL_PORT + device.index : undefined,
    });
    device.socket = socket;
    const parser = mqttPacket.parser({ protocolVersion: 4 });
    let settled = false;
    const settle = () => {
      if (!settled) {
        settled = true;
        resolve();
      }
    };
    parser.on('packet', (packet) => {
      if (packet.cmd === 'connack') {
        if (packet.returnCode === 0) {
          device.connected = true;
          // Readings kept while disconnected go at once, as a logger back online sends its buffer.
          if (running) publish(device);
        } else refused++;
        settle();
      } else if (packet.cmd === 'puback') {
        const message = device.inFlight.get(packet.messageId!);
        if (message !== undefined) {
          device.inFlight.delete(packet.messageId!);
          latencies.push(performance.now() - message.at);
          acked++;
          device.ackedSinceReconnect = true;
        }
      }
    });
    socket.setNoDelay(true);
    socket.on('data', (data) => parser.parse(data));
    socket.on('connect', () => {
      socket.write(
        mqttPacket.generate({
          cmd: 'connect',
          protocolId: 'MQTT',
          protocolVersion: 4,
          clean: true,
          clientId: device.serial,
          username: device.serial,
          password: Buffer.from(device.key),
          // Several intervals: a device that publishes needs no PINGREQ.
          keepalive: Math.max(60, Math.ceil((3 * intervalMs) / 1000)),
        }),
      );
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (ownPort && (error.code === 'EADDRINUSE' || error.code === 'EADDRNOTAVAIL')) device.portTaken = true;
    });
    socket.on('close', () => {
      if (device.connected && !silenced) dropped++;
      device.connected = false;
      device.socket = null;
      // Unacknowledged readings are sent again after reconnecting, as loggers do: back in the backlog.
      for (const message of device.inFlight.values()) device.backlog.unshift(...message.readings);
      device.inFlight.clear();
      settle();
    });
  });
}

/** Connects every device not connected, `concurrency` handshakes at a time. */
async function connectAll(concurrency: number) {
  round++;
  let next = 0;
  const worker = async () => {
    while (next < devices.length) {
      const device = devices[next++]!;
      if (device.connected) continue;
      await open(device);
      if (device.portTaken) {
        device.portTaken = false;
        await open(device, false);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

function startPublishing() {
  running = true;
  for (const device of devices) {
    // Each device at its own phase, as a fleet switched on over time.
    const phase = Math.random() * intervalMs;
    timers.push(
      setTimeout(() => {
        tick(device);
        timers.push(setInterval(() => tick(device), intervalMs));
      }, phase),
    );
  }
}

function stats(): FleetStats {
  const now = performance.now();
  let waiting = 0;
  let oldest = now;
  let connected = 0;
  let ackedSinceReconnect = 0;
  for (const device of devices) {
    waiting += device.inFlight.size;
    for (const message of device.inFlight.values()) oldest = Math.min(oldest, message.at);
    if (device.connected) connected++;
    if (device.ackedSinceReconnect) ackedSinceReconnect++;
  }
  const result = {
    latencies,
    sent,
    acked,
    waiting,
    oldestWaitingMs: now - oldest,
    connected,
    dropped,
    refused,
    ackedSinceReconnect,
  };
  latencies = [];
  dropped = 0;
  refused = 0;
  return result;
}

async function handle(command: FleetCommand): Promise<unknown> {
  switch (command.cmd) {
    case 'setup':
      port = command.port;
      localAddresses = command.localAddresses;
      intervalMs = command.intervalMs;
      devices = command.devices.map((d, index) => ({
        ...d,
        index,
        socket: null,
        connected: false,
        nextId: 0,
        inFlight: new Map(),
        backlog: [],
        ackedSinceReconnect: false,
        portTaken: false,
      }));
      return { devices: devices.length };
    case 'connect': {
      const started = performance.now();
      silenced = false;
      await connectAll(command.concurrency);
      return { ms: performance.now() - started, connected: devices.filter((d) => d.connected).length };
    }
    case 'start':
      startPublishing();
      return {};
    case 'stats':
      return stats();
    case 'silence':
      // The whole fleet loses the server at once (a restart, a network cut): readings keep being
      // taken and pile up in each device's backlog.
      silenced = true;
      for (const device of devices) device.socket?.destroy();
      return {};
    case 'reconnect': {
      for (const device of devices) device.ackedSinceReconnect = false;
      const started = performance.now();
      silenced = false;
      // Every device at once, as after a restart: no ramp.
      await connectAll(devices.length);
      return { ms: performance.now() - started, connected: devices.filter((d) => d.connected).length };
    }
    case 'exit':
      for (const timer of timers) clearTimeout(timer);
      for (const device of devices) device.socket?.destroy();
      setImmediate(() => process.exit(0));
      return {};
  }
}

process.on('message', (message: { id: number; command: FleetCommand }) => {
  handle(message.command).then(
    (result) => process.send?.({ id: message.id, result }),
    (error: Error) => process.send?.({ id: message.id, error: error.message }),
  );
});
