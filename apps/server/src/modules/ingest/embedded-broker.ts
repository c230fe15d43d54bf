import { createServer, type Server } from 'node:net';
import { Aedes } from 'aedes';
import { listenOrExplain } from '../../lib/listen';

/** True when `serial` is a bound device whose current key is `key`. */
export type DeviceAuthenticator = (serial: string, key: string) => Promise<boolean>;

export interface EmbeddedBroker {
  port: number;
  close(): Promise<void>;
}

/** MQTT 3.1.1 CONNACK return code "not authorized". */
const NOT_AUTHORIZED = 5;

/**
 * The embedded MQTT broker (Aedes) devices connect to when no external broker is configured
 * (API.md "Device protocol v1"): client id and username are the serial, the password is the device
 * key. Readings it receives go through the ingest module (telemetry issue).
 */
export async function startEmbeddedBroker(
  port: number,
  host: string,
  authenticateDevice: DeviceAuthenticator,
): Promise<EmbeddedBroker> {
  const broker = await Aedes.createBroker({
    authenticate: (client, username, password, done) => {
      const serial = username ?? '';
      const key = password?.toString() ?? '';
      if (!serial || serial !== client.id) {
        return done(
          Object.assign(new Error('client id must equal the serial'), { returnCode: NOT_AUTHORIZED }),
          false,
        );
      }
      authenticateDevice(serial, key).then(
        (allowed) =>
          allowed
            ? done(null, true)
            : done(
                Object.assign(new Error('unknown serial or bad key'), { returnCode: NOT_AUTHORIZED }),
                false,
              ),
        (error: Error) => done(Object.assign(error, { returnCode: NOT_AUTHORIZED }), false),
      );
    },
  });
  const server: Server = createServer(broker.handle);
  const actualPort = await listenOrExplain(server, port, host, 'MQTT_PORT');
  return {
    port: actualPort,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => broker.close(() => resolve()));
        // Connected devices keep the server open; Aedes closes their connections.
        broker.close(() => undefined);
      }),
  };
}
