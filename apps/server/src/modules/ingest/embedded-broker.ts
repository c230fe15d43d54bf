import { createServer, type Server } from 'node:net';
import { Aedes, type AedesOptions } from 'aedes';
import { listenOrExplain } from '../../lib/listen';

/** True when `serial` is a bound device whose current key is `key`. */
export type DeviceAuthenticator = (serial: string, key: string) => Promise<boolean>;

export interface BrokerHooks {
  authenticate: DeviceAuthenticator;
  authorizePublish?: AedesOptions['authorizePublish'];
  authorizeSubscribe?: AedesOptions['authorizeSubscribe'];
}

export interface EmbeddedBroker {
  port: number;
  /** Publishes from the platform to devices (`down`, `error` topics). */
  publish(topic: string, payload: string): void;
  /** Drops a device's connection, e.g. after its key was rotated. */
  disconnect(serial: string): void;
  close(): Promise<void>;
}

/** MQTT 3.1.1 CONNACK return code "not authorized". */
const NOT_AUTHORIZED = 5;

function refusal(message: string) {
  return Object.assign(new Error(message), { returnCode: NOT_AUTHORIZED });
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
  const broker = await Aedes.createBroker({
    authenticate: (client, username, password, done) => {
      const serial = username ?? '';
      if (!serial || serial !== client.id) return done(refusal('client id must equal the serial'), false);
      hooks.authenticate(serial, password?.toString() ?? '').then(
        (allowed) => (allowed ? done(null, true) : done(refusal('unknown serial or bad key'), false)),
        () => done(refusal('authentication unavailable'), false),
      );
    },
    ...(hooks.authorizePublish ? { authorizePublish: hooks.authorizePublish } : {}),
    ...(hooks.authorizeSubscribe ? { authorizeSubscribe: hooks.authorizeSubscribe } : {}),
  });
  const server: Server = createServer(broker.handle);
  let actualPort: number;
  try {
    actualPort = await listenOrExplain(server, port, host, 'MQTT_PORT');
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
    close: () =>
      new Promise<void>((resolve) => {
        // Aedes closes the devices' connections; the listener then closes.
        broker.close(() => server.close(() => resolve()));
      }),
  };
}
