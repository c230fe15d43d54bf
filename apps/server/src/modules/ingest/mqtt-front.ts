import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import mqttPacket, { type Packet } from 'mqtt-packet';
import { PacketSizeGuard } from './mqtt-packet-guard';
import { Mqtt5Session } from './mqtt5-translate';

type MqttParser = ReturnType<typeof mqttPacket.parser>;
const NOTHING = Buffer.alloc(0);

export interface FrontOptions {
  /** Largest MQTT packet accepted (MQTT_MAX_PACKET_BYTES); a larger one closes the connection. */
  maxPacketBytes?: number;
  onOversizedPacket?(bytes: number): void;
  /** Told when an MQTT 5 device did something MQTT 3.1.1 cannot carry (the connection closes). */
  onUntranslatable?(reason: string): void;
}

/**
 * The protocol level of the CONNECT packet at the start of `bytes`: null while more bytes are
 * needed, -1 when the first packet is not a CONNECT Aedes could read (Aedes refuses it itself).
 */
function connectLevel(bytes: Buffer): number | null {
  if (bytes.length === 0) return null;
  if (bytes[0]! >> 4 !== 1) return -1;
  let i = 1;
  let length = 0;
  for (let shift = 0; ; shift += 7) {
    if (i >= bytes.length) return null;
    const byte = bytes[i++]!;
    length += (byte & 0x7f) * 2 ** shift;
    if (!(byte & 0x80) || shift >= 21) break;
  }
  if (bytes.length < i + 2) return length < 2 ? -1 : null;
  const at = i + 2 + bytes.readUInt16BE(i);
  if (at >= i + length) return -1;
  return at < bytes.length ? bytes[at]! : null;
}

/**
 * What Aedes reads and writes instead of a device's socket. Every byte from the device passes the
 * packet size guard before Aedes sees it, so an oversized packet is never parsed or buffered.
 * The first packet's protocol level decides the rest: 3.1 and 3.1.1 pass through unchanged, MQTT
 * 5 is translated packet by packet (mqtt5-translate.ts). Backpressure is kept: while Aedes reads
 * nothing (an acknowledgement held back), the socket is paused.
 *
 * A fleet is tens of thousands of these held open for days, so what a connection keeps counts:
 * the translation's two parsers are made only for an MQTT 5 device (they were a fifth of a 3.1.1
 * connection's memory, docs/performance.md, "Memory per connected device").
 */
export function frontDeviceSocket(socket: Socket, options: FrontOptions): Duplex {
  const guard = options.maxPacketBytes !== undefined ? new PacketSizeGuard(options.maxPacketBytes) : null;
  /** A 3.1 or 3.1.1 device's bytes pass through as they come; until its CONNECT is read, neither. */
  let plain = false;
  let sniffed = NOTHING;
  /** An MQTT 5 device's translation: made at its CONNECT, so that 3.1.1 devices carry no parsers. */
  let mqtt5: { session: Mqtt5Session; fromDevice: MqttParser; fromBroker: MqttParser } | null = null;

  // What goes to the device in one turn of the event loop leaves in one system call: the
  // acknowledgements of a transaction's messages are written one by one as Aedes handles them, and
  // a device with several messages in flight got a socket write for each (a quarter of the main
  // thread in the one-reading ingest benchmark).
  // Flushed before the socket is closed too: a refusal's CONNACK is written just before it.
  let corked = false;
  const flush = () => {
    if (!corked) return;
    corked = false;
    socket.uncork();
  };
  const destroySocket = () => {
    flush();
    socket.destroy();
  };
  const toDevice = (bytes: Buffer): boolean => {
    if (!corked) {
      corked = true;
      socket.cork();
      setImmediate(flush);
    }
    return socket.write(bytes);
  };

  const front = new Duplex({
    read() {
      socket.resume();
    },
    write(chunk: Buffer, _encoding, callback) {
      if (mqtt5) mqtt5.fromBroker.parse(chunk);
      else if (!toDevice(chunk)) return void socket.once('drain', () => callback());
      callback();
    },
    final(callback) {
      flush();
      socket.end();
      callback();
    },
    destroy(error, callback) {
      destroySocket();
      callback(error);
    },
  });
  const toBroker = (bytes: Buffer) => {
    if (!front.push(bytes)) socket.pause();
  };
  const close = (reason: string) => {
    options.onUntranslatable?.(reason);
    destroySocket();
  };

  /** Parsers of both directions: the device's MQTT 5 packets, and what Aedes answers in 3.1.1. */
  const translating = () => {
    const session = new Mqtt5Session(options.maxPacketBytes);
    const fromDevice = mqttPacket.parser();
    const fromBroker = mqttPacket.parser({ protocolVersion: 4 });
    fromDevice.on('packet', (packet: Packet) => {
      const translated = session.toBroker(packet);
      if (typeof translated === 'string') return close(translated);
      toBroker(mqttPacket.generate(translated));
    });
    fromDevice.on('error', (error) => close(error.message));
    fromBroker.on('packet', (packet: Packet) => {
      toDevice(mqttPacket.generate(session.toDevice(packet), { protocolVersion: 5 }));
    });
    fromBroker.on('error', destroySocket);
    return { session, fromDevice, fromBroker };
  };

  socket.on('data', (chunk: Buffer) => {
    const oversized = guard?.feed(chunk) ?? null;
    if (oversized !== null) {
      options.onOversizedPacket?.(oversized);
      destroySocket();
      return;
    }
    if (plain) return toBroker(chunk);
    if (mqtt5) return void mqtt5.fromDevice.parse(chunk);
    sniffed = Buffer.concat([sniffed, chunk]);
    const level = connectLevel(sniffed);
    if (level === null) return;
    const bytes = sniffed;
    sniffed = NOTHING;
    if (level === 5) {
      mqtt5 = translating();
      mqtt5.fromDevice.parse(bytes);
    } else {
      // 3.1, 3.1.1, and anything else Aedes is to refuse itself.
      plain = true;
      toBroker(bytes);
    }
  });
  socket.on('end', () => front.push(null));
  socket.on('close', () => front.destroy());
  socket.on('error', () => front.destroy());
  return front;
}
