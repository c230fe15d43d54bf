import type { Client, PublishPacket, Subscription } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { DeviceDirectory } from './device-directory';
import { receiveEvent, receiveReadings, storedWithRemarks } from './device-input';
import type { IngestService } from './ingest.service';

const TOPIC = /^cc\/v1\/([^/]+)\/(up|event|ack)$/;

export interface MqttIngestDeps {
  db: Db;
  directory: DeviceDirectory;
  ingest: IngestService;
  log: FastifyBaseLogger;
  /** Publishes a rejection reason (and details, e.g. the refused records) to `cc/v1/<serial>/error`. */
  reportError(serial: string, reason: string, details?: Record<string, unknown>): void;
  /** Hands a device's `ack` (answer to a parameter request) to modules/parameters. */
  onAck?(serial: string, payload: Buffer): void;
}

/**
 * Aedes' `authorizePublish`: it runs before the broker acknowledges a QoS 1 publish, so the
 * PUBACK leaves only after the readings are committed. MQTT 3.1.1 has no negative PUBACK: a
 * payload that can never be stored is acknowledged (so the device does not resend it forever)
 * and its reason published on `cc/v1/<serial>/error`; a storage failure is not acknowledged
 * (the connection closes and the device resends after reconnecting).
 */
export function authorizeDevicePublish(deps: MqttIngestDeps) {
  return (client: Client | null, packet: PublishPacket, callback: (error?: Error | null) => void) => {
    const match = TOPIC.exec(packet.topic);
    if (!client || !match || match[1] !== client.id) {
      callback(new Error(`devices may publish only to their own cc/v1/<serial>/up|event|ack topics`));
      return;
    }
    const serial = match[1];
    const kind = match[2];
    if (kind === 'ack') {
      deps.onAck?.(serial, packet.payload as Buffer);
      callback(null);
      return;
    }
    void (async () => {
      await keepPace(deps, serial);
      const device = await deps.directory.find(serial);
      if (!device) throw new Error('device no longer bound');
      if (kind === 'up') {
        const outcome = await receiveReadings(deps.ingest, device, packet.payload);
        const remarks = outcome.ok ? storedWithRemarks(outcome.result) : { error: outcome.reason };
        if (remarks) {
          const { error, ...details } = remarks;
          deps.reportError(serial, error, details);
        }
      } else {
        const outcome = await receiveEvent(deps.ingest, device, packet.payload);
        if (!outcome.ok) deps.reportError(serial, outcome.reason);
      }
    })().then(
      () => callback(null),
      (error: Error) => {
        deps.log.error({ err: error, serial }, 'ingest failed; not acknowledged');
        callback(error);
      },
    );
  };
}

/**
 * Over its message allowance (DEVICE_MESSAGES_PER_MINUTE) a device is slowed, not cut off: its
 * PUBACK is held until the allowance has refilled, and Aedes reads nothing more from the
 * connection meanwhile, so the device's in-flight window fills and it waits. Nothing is lost and
 * no other device waits for it. It is told once per slowed message on its error topic.
 */
async function keepPace(deps: MqttIngestDeps, serial: string) {
  const rate = deps.ingest.messageRate;
  let told = false;
  while (!rate.take(serial)) {
    const waitMs = Math.max(10, rate.msUntilToken(serial));
    if (!told) {
      deps.reportError(
        serial,
        `more than ${rate.perMinute} messages a minute (DEVICE_MESSAGES_PER_MINUTE): this message is acknowledged in about ${Math.ceil(waitMs / 1000)} s; send less often or put more records in one message`,
      );
      told = true;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(waitMs, 1000)));
  }
}

/** Devices may subscribe only to their own `down` and `error` topics. */
export function authorizeDeviceSubscribe() {
  return (
    client: Client,
    subscription: Subscription,
    callback: (error: Error | null, s?: Subscription | null) => void,
  ) => {
    const allowed =
      client &&
      (subscription.topic === `cc/v1/${client.id}/down` || subscription.topic === `cc/v1/${client.id}/error`);
    callback(allowed ? null : new Error('subscription not allowed'), allowed ? subscription : null);
  };
}
