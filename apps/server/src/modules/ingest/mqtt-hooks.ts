import type { Client, PublishPacket, Subscription } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { DeviceDirectory } from './device-directory';
import { receiveEvent, receiveReadings } from './device-input';
import type { IngestService } from './ingest.service';
import type { IngestResult } from './write-batch';

const TOPIC = /^cc\/v1\/([^/]+)\/(up|event|ack)$/;

export interface MqttIngestDeps {
  db: Db;
  directory: DeviceDirectory;
  ingest: IngestService;
  log: FastifyBaseLogger;
  /** Publishes a rejection reason to `cc/v1/<serial>/error`. */
  reportError(serial: string, reason: string): void;
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
      const device = await deps.directory.find(serial);
      if (!device) throw new Error('device no longer bound');
      const outcome =
        kind === 'up'
          ? await receiveReadings(deps.ingest, device, packet.payload)
          : await receiveEvent(deps.ingest, device, packet.payload);
      if (!outcome.ok) deps.reportError(serial, outcome.reason);
      else if (kind === 'up') {
        const unknown = (outcome as unknown as { result: IngestResult }).result.unknownChannels;
        if (unknown.length > 0) {
          deps.reportError(
            serial,
            `channels ${unknown.join(', ')} do not exist on this device; their values were not stored`,
          );
        }
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
