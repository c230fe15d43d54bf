import type { FastifyInstance } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import { receiveEvent, receiveReadings, storedWithRemarks } from './device-input';

const TOPIC = /^cc\/v1\/([^/]+)\/(up|event|ack)$/;
/** At most this long, a stopping instance finishes the messages the broker already handed it. */
const DRAIN_MS = 5_000;
/** Handed-over messages have stopped coming when none arrived for this long. */
const QUIET_MS = 300;
/** MQTT 5's DISCONNECT reason when another connection took this client id's session. */
const SESSION_TAKEN_OVER = 0x8e;

export interface ExternalBrokerOptions {
  url: string;
  /** Shared-subscription group: every instance of one platform uses the same, so each message is handled once. */
  group: string;
  /**
   * The consumers' client ids are this with `-1`, `-2`... appended. The same after a restart
   * (config.ts, MQTT_CLIENT_ID): persistent sessions are found again by their client id.
   */
  clientId: string;
  /** Connections consuming the group, each one message at a time (see below). */
  consumers?: number;
}

export interface ExternalBrokerLink {
  /** The first consumer: parameter requests go down through it. */
  client: MqttClient;
  /** Every consumer is connected (readiness). */
  connected(): boolean;
  close(): Promise<void>;
}

/**
 * mqtt.js takes the next packet of a connection only once the previous QoS 1 message is
 * acknowledged, and we acknowledge after the commit: one connection stores one message per
 * commit (about 40 messages a second measured, where a fleet of 10 000 loggers every 10 s sends
 * 1 000). Several connections in the share group let the ingest batch gather that many messages
 * into one commit.
 */
export const DEFAULT_CONSUMERS = 32;

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
  /** Messages being stored, acknowledged to the broker once they are. */
  const inFlight = new Set<Promise<void>>();
  let lastMessageAt = 0;
  const baseId = options.clientId;
  const connectConsumer = (index: number) => {
    const client: MqttClient = mqtt.connect(options.url, {
      clientId: `${baseId}-${index}`,
      protocolVersion: 5,
      clean: false,
      properties: { sessionExpiryInterval: 3600 },
      reconnectPeriod: 2_000,
      customHandleAcks: (topic, message, _packet, done) => {
        lastMessageAt = Date.now();
        const handling = handle(topic, message).then(
          () => done(0),
          (error: Error) => {
            app.log.error({ err: error, topic }, 'ingest failed; message left unacknowledged');
            // Reconnecting makes the broker resend what this session has not acknowledged.
            setTimeout(() => client.reconnect(), 1_000);
          },
        );
        inFlight.add(handling);
        void handling.finally(() => inFlight.delete(handling));
      },
    });
    // The broker's messages are acknowledged one by one as they are stored; with Nagle each PUBACK
    // after the first waited for the broker's delayed TCP ACK (see embedded-broker.ts).
    client.on('connect', () => (client.stream as { setNoDelay?: (on: boolean) => void }).setNoDelay?.(true));
    // Without a listener an `error` event (the broker refusing a reconnection) would end the process.
    client.on('error', (error) =>
      app.log.warn({ err: error, clientId: `${baseId}-${index}` }, 'MQTT_URL broker'),
    );
    // Two processes under one client id take the session from each other at every reconnection.
    client.on('disconnect', (packet) => {
      if (packet.reasonCode === SESSION_TAKEN_OVER)
        app.log.error(
          { clientId: `${baseId}-${index}` },
          'another process connected to MQTT_URL under this client id: give each instance its own MQTT_CLIENT_ID',
        );
    });
    return client;
  };
  const consumers = Array.from({ length: Math.max(1, options.consumers ?? DEFAULT_CONSUMERS) }, (_, i) =>
    connectConsumer(i + 1),
  );
  const [client] = consumers as [MqttClient];
  try {
    await Promise.all(
      consumers.map(
        (c) =>
          new Promise<void>((resolve, reject) => {
            c.once('connect', () => resolve());
            c.once('error', reject);
          }),
      ),
    );
  } catch (error) {
    await Promise.all(consumers.map((c) => c.endAsync(true)));
    throw error;
  }

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

  const topics = ['up', 'event', 'ack'].map((kind) => `$share/${options.group}/cc/v1/+/${kind}`);
  await Promise.all(consumers.map((c) => c.subscribeAsync(topics, { qos: 1 })));
  // Parameter requests go down through this broker too (modules/parameters).
  const detachParameters = app.parameters.link.attachPublisher((topic, payload) =>
    client.publish(topic, payload, { qos: 1 }),
  );
  return {
    client,
    connected: () => consumers.every((c) => c.connected),
    /**
     * The drain (SIGTERM): leave the share group first, so the broker hands new messages to the
     * other instances; then store and acknowledge what it had already handed to this one; then
     * end the session. A persistent session left behind would keep receiving its share of the
     * devices' messages (Mosquitto still counts an offline member), acknowledged to the devices
     * and stored only when a process with the same client id connects again.
     */
    close: async () => {
      detachParameters();
      await Promise.all(
        consumers.map((c) => (c.connected ? c.unsubscribeAsync(topics).catch(() => undefined) : undefined)),
      );
      const deadline = Date.now() + DRAIN_MS;
      while (Date.now() < deadline && (inFlight.size > 0 || Date.now() - lastMessageAt < QUIET_MS)) {
        await Promise.race([Promise.allSettled([...inFlight]), new Promise((r) => setTimeout(r, 50))]);
      }
      await Promise.all(
        consumers.map((c) => c.endAsync(false, { properties: { sessionExpiryInterval: 0 } })),
      );
    },
  };
}
