import { hostname } from 'node:os';
import type { FastifyInstance } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import { receiveEvent, receiveReadings, storedWithRemarks } from './device-input';

const TOPIC = /^cc\/v1\/([^/]+)\/(up|event|ack)$/;

export interface ExternalBrokerOptions {
  url: string;
  /** Shared-subscription group: every instance of one platform uses the same, so each message is handled once. */
  group: string;
  clientId?: string;
}

export interface ExternalBrokerLink {
  client: MqttClient;
  close(): Promise<void>;
}

/**
 * Consumes device messages from an external broker (Mosquitto, EMQX) through the shared
 * subscriptions `$share/<group>/cc/v1/+/up|event`. The broker authenticates devices; the platform
 * still ignores serials it does not know. Each message is acknowledged to the broker only after
 * its readings are committed; a storage failure leaves it unacknowledged and the session is
 * persistent, so the broker delivers it again after reconnecting.
 */
export async function connectExternalBroker(
  app: FastifyInstance,
  options: ExternalBrokerOptions,
): Promise<ExternalBrokerLink> {
  const client = await mqtt.connectAsync(options.url, {
    clientId: options.clientId ?? `coldchain-${hostname()}-${process.pid}`,
    protocolVersion: 5,
    clean: false,
    properties: { sessionExpiryInterval: 3600 },
    reconnectPeriod: 2_000,
    customHandleAcks: (topic, message, _packet, done) => {
      void handle(topic, message).then(
        () => done(0),
        (error: Error) => {
          app.log.error({ err: error, topic }, 'ingest failed; message left unacknowledged');
          // Reconnecting makes the broker resend what this session has not acknowledged.
          setTimeout(() => client.reconnect(), 1_000);
        },
      );
    },
  });

  async function handle(topic: string, message: Buffer) {
    const match = TOPIC.exec(topic);
    if (!match) return;
    const [, serial, kind] = match as unknown as [string, string, string];
    if (kind === 'ack') {
      app.parameters.link.receiveAck(serial, message);
      return;
    }
    const device = await app.deviceDirectory.find(serial);
    if (!device) {
      app.log.warn({ serial }, 'message from an unknown serial ignored');
      return;
    }
    let remarks: { error: string } | null;
    if (kind === 'up') {
      const outcome = await receiveReadings(app.ingest, device, message);
      remarks = outcome.ok ? storedWithRemarks(outcome.result) : { error: outcome.reason };
    } else {
      const outcome = await receiveEvent(app.ingest, device, message);
      remarks = outcome.ok ? null : { error: outcome.reason };
    }
    if (remarks) {
      client.publish(`cc/v1/${serial}/error`, JSON.stringify({ ts: Date.now(), ...remarks }), { qos: 0 });
    }
  }

  await client.subscribeAsync(
    [
      `$share/${options.group}/cc/v1/+/up`,
      `$share/${options.group}/cc/v1/+/event`,
      `$share/${options.group}/cc/v1/+/ack`,
    ],
    { qos: 1 },
  );
  // Parameter requests go down through this broker too (modules/parameters).
  const detachParameters = app.parameters.link.attachPublisher((topic, payload) =>
    client.publish(topic, payload, { qos: 1 }),
  );
  return {
    client,
    close: () => {
      detachParameters();
      return client.endAsync();
    },
  };
}
