import type { FastifyInstance } from 'fastify';
import { onDeviceChanged } from '../devices/devices.service';
import { type EmbeddedBroker, startEmbeddedBroker } from './embedded-broker';
import { authorizeDevicePublish, authorizeDeviceSubscribe } from './mqtt-hooks';

/**
 * Starts the embedded broker wired to the app's ingest: devices authenticate with serial and
 * key, publish readings and events, and lose their connection when their key is rotated.
 */
export async function startDeviceBroker(
  app: FastifyInstance,
  port: number,
  host: string,
): Promise<EmbeddedBroker> {
  let broker: EmbeddedBroker | undefined;
  broker = await startEmbeddedBroker(port, host, {
    authenticate: async (serial, key) => (await app.deviceDirectory.authenticate(serial, key)) !== null,
    authorizePublish: authorizeDevicePublish({
      db: app.db,
      directory: app.deviceDirectory,
      ingest: app.ingest,
      log: app.log,
      reportError: (serial, reason) =>
        broker?.publish(`cc/v1/${serial}/error`, JSON.stringify({ ts: Date.now(), error: reason })),
      onAck: (serial, payload) => app.parameters.link.receiveAck(serial, payload),
    }),
    authorizeSubscribe: authorizeDeviceSubscribe(),
  });
  const stopListening = onDeviceChanged((serial) => broker?.disconnect(serial));
  const detachParameters = app.parameters.link.attachPublisher((topic, payload) =>
    broker?.publish(topic, payload),
  );
  const close = broker.close;
  return {
    ...broker,
    close: async () => {
      stopListening();
      detachParameters();
      await close();
    },
  };
}
