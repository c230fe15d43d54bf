import type { FastifyInstance } from 'fastify';
import { onDeviceChanged } from '../devices/devices.service';
import type { DeviceLimits } from './device-limits';
import { type EmbeddedBroker, startEmbeddedBroker } from './embedded-broker';
import { authorizeDevicePublish, authorizeDeviceSubscribe } from './mqtt-hooks';

/**
 * Starts the embedded broker wired to the app's ingest: devices authenticate with serial and
 * key, publish readings and events, and lose their connection when their key is rotated. The
 * limits are the app's (README "Configuration") unless given.
 */
export async function startDeviceBroker(
  app: FastifyInstance,
  port: number,
  host: string,
  limits: Pick<DeviceLimits, 'maxPacketBytes' | 'connectsPerMinute'> = app.ingest.limits,
): Promise<EmbeddedBroker> {
  let broker: EmbeddedBroker | undefined;
  broker = await startEmbeddedBroker(port, host, {
    authenticate: async (serial, key) => (await app.deviceDirectory.authenticate(serial, key)) !== null,
    admission: app.admission,
    maxPacketBytes: limits.maxPacketBytes,
    connectsPerMinute: limits.connectsPerMinute,
    onOversizedPacket: (serial, bytes) =>
      app.log.warn(
        { serial, bytes, limit: limits.maxPacketBytes },
        'MQTT packet over MQTT_MAX_PACKET_BYTES; connection closed',
      ),
    onUntranslatable: (serial, reason) =>
      app.log.warn({ serial, reason }, 'MQTT 5 packet without an MQTT 3.1.1 equivalent; connection closed'),
    authorizePublish: authorizeDevicePublish({
      db: app.db,
      directory: app.deviceDirectory,
      ingest: app.ingest,
      log: app.log,
      reportError: (serial, reason, details) =>
        broker?.publish(
          `cc/v1/${serial}/error`,
          JSON.stringify({ ts: Date.now(), error: reason, ...details }),
        ),
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
