import { createServer, type Server, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { Aedes, type AedesOptions } from 'aedes';
import { listenOrExplain } from '../../lib/listen';
import type { ConnectionAdmission } from './connection-admission';
import { DeviceRateLimiter } from './device-rate-limit';
import { frontDeviceSocket } from './mqtt-front';

/** Connections the kernel may hold for the broker before it accepts them (see listen below). */
const MQTT_LISTEN_BACKLOG = 16_384;
/** True when `serial` is a bound device whose current key is `key`. */
export type DeviceAuthenticator = (serial: string, key: string) => Promise<boolean>;

export interface BrokerHooks {
  authenticate: DeviceAuthenticator;
  /** Largest MQTT packet accepted; a larger one closes the connection (MQTT_MAX_PACKET_BYTES). */
  maxPacketBytes?: number;
  /** Paces CONNACKs to what ingest absorbs (a fleet back after a restart); none: at once. */
  admission?: Pick<ConnectionAdmission, 'admit'>;
  /** Successful connections a device may make a minute (DEVICE_CONNECTS_PER_MINUTE). */
  connectsPerMinute?: number;
  /** Told when a connection is closed for a packet over the limit (logged by the caller). */
  onOversizedPacket?(clientId: string | null, bytes: number): void;
  /** Told when an MQTT 5 connection is closed for something MQTT 3.1.1 cannot carry. */
  onUntranslatable?(clientId: string | null, reason: string): void;
  authorizePublish?: AedesOptions['authorizePublish'];
  authorizeSubscribe?: AedesOptions['authorizeSubscribe'];
}

export interface EmbeddedBroker {
  port: number;
  /** Publishes from the platform to devices (`down`, `error` topics). */
  publish(topic: string, payload: string): void;
  /** Drops a device's connection, e.g. after its key was rotated. */
  disconnect(serial: string): void;
  /** Whether its port still accepts connections (`/readyz`). */
  listening(): boolean;
  close(): Promise<void>;
}

/** The client id Aedes gave the connection, once it has read the CONNECT. */
function clientIdOf(conn: Duplex): string | null {
  return (conn as Duplex & { client?: { id: string | null } }).client?.id ?? null;
}

/** MQTT 3.1.1 CONNACK return codes (sent as MQTT 5 reason codes to MQTT 5 devices, mqtt5-translate.ts). */
const SERVER_UNAVAILABLE = 3;
const NOT_AUTHORIZED = 5;

function refusal(message: string, returnCode = NOT_AUTHORIZED) {
  return Object.assign(new Error(message), { returnCode });
}

/**
 * The embedded MQTT broker (Aedes) devices connect to when no external broker is configured
 * (API.md "Device protocol v1"): client id and username are the serial, the password is the
 * device key.
 */
export async function startEmbeddedBroker(
  port: number,
  host: string,
  hooks: BrokerHooks,
): Promise<EmbeddedBroker> {
  // Counted after a successful authentication: anyone who knows a serial (it is printed on the
  // device) could otherwise lock the device out with wrong keys. What this stops is two loggers
  // sharing one serial and key, taking the connection from each other in a loop.
  const connects = new DeviceRateLimiter(hooks.connectsPerMinute ?? Number.POSITIVE_INFINITY);
  const broker = await Aedes.createBroker({
    authenticate: (client, username, password, done) => {
      const serial = username ?? '';
      if (!serial || serial !== client.id) return done(refusal('client id must equal the serial'), false);
      hooks.authenticate(serial, password?.toString() ?? '').then(
        (allowed) => {
          if (!allowed) return done(refusal('unknown serial or bad key'), false);
          if (!connects.take(serial))
            return done(
              refusal('too many connections a minute (DEVICE_CONNECTS_PER_MINUTE)', SERVER_UNAVAILABLE),
              false,
            );
          if (!hooks.admission) return done(null, true);
          // Held until ingest can take what the device brings (connection-admission.ts).
          hooks.admission.admit().then(() => done(null, true));
        },
        () => done(refusal('authentication unavailable'), false),
      );
    },
    ...(hooks.authorizePublish ? { authorizePublish: hooks.authorizePublish } : {}),
    ...(hooks.authorizeSubscribe ? { authorizeSubscribe: hooks.authorizeSubscribe } : {}),
  });
  // No Nagle: a device with several messages in flight (a backlog after an outage) gets each
  // PUBACK as it is ready. With Nagle an acknowledgement waited for the device's TCP ACK of the
  // previous one, which Linux delays by up to 40 ms: the one-reading ingest benchmark doubled
  // without it (docs/performance.md, "Acknowledgements without Nagle").
  const server: Server = createServer({ noDelay: true }, (socket: Socket) => {
    const front = frontDeviceSocket(socket, {
      maxPacketBytes: hooks.maxPacketBytes,
      onOversizedPacket: (bytes) => hooks.onOversizedPacket?.(clientIdOf(front), bytes),
      onUntranslatable: (reason) => hooks.onUntranslatable?.(clientIdOf(front), reason),
    });
    broker.handle(front);
  });
  let actualPort: number;
  try {
    // A restart brings the whole fleet back at once. Node's default queue of 511 connections not
    // yet accepted overflowed: the kernel dropped the rest of the handshakes (28 035 in three
    // restarts of 10 000 devices), and those devices waited 1, 3, 7 s to try again. The kernel
    // caps this at net.core.somaxconn (docs/deployment.md, "Sizing").
    actualPort = await listenOrExplain(server, port, host, 'MQTT_PORT', MQTT_LISTEN_BACKLOG);
  } catch (error) {
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    throw error;
  }
  return {
    port: actualPort,
    publish: (topic, payload) =>
      broker.publish({ cmd: 'publish', topic, payload, qos: 0, retain: false, dup: false }, () => undefined),
    disconnect: (serial) => {
      const client = (broker as unknown as { clients: Record<string, { close(): void }> }).clients[serial];
      client?.close();
    },
    listening: () => server.listening && !broker.closed,
    close: () =>
      new Promise<void>((resolve) => {
        // Aedes closes the devices' connections; the listener then closes.
        broker.close(() => server.close(() => resolve()));
      }),
  };
}
