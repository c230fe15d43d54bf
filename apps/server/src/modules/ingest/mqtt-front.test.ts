import { once } from 'node:events';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import mqttPacket from 'mqtt-packet';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { frontDeviceSocket } from './mqtt-front';

/** A listener whose connections go through the front; what the broker side would read is collected. */
async function frontServer() {
  const fronts: { front: Duplex; received: Buffer[] }[] = [];
  const server: Server = createServer((socket: Socket) => {
    const front = frontDeviceSocket(socket, { maxPacketBytes: 65_536 });
    const received: Buffer[] = [];
    front.on('data', (chunk: Buffer) => received.push(chunk));
    fronts.push({ front, received });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, fronts, port: (server.address() as AddressInfo).port };
}

function connectPacket(protocolVersion: 4 | 5): Buffer {
  return mqttPacket.generate({
    cmd: 'connect',
    protocolId: 'MQTT',
    protocolVersion,
    clean: true,
    clientId: 'CC0001',
    keepalive: 60,
    username: 'CC0001',
    password: Buffer.from('key'),
  });
}

async function until(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
}

describe('the MQTT front of a device connection', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
    vi.restoreAllMocks();
  });

  it('passes an MQTT 3.1.1 connection through without making parsers for it, and translates an MQTT 5 one', async () => {
    const parsers = vi.spyOn(mqttPacket, 'parser');
    const { server, fronts, port } = await frontServer();
    cleanups.push(() => server.close());

    const plain = connect(port, '127.0.0.1');
    cleanups.push(() => plain.destroy());
    const bytes = connectPacket(4);
    plain.write(bytes);
    await until(() => Buffer.concat(fronts[0]?.received ?? []).length >= bytes.length);
    // The broker reads the device's bytes as they came, and the connection holds no parser of ours
    // (a fleet holds tens of thousands of these: docs/performance.md, "Memory per connected device").
    expect(Buffer.concat(fronts[0]!.received)).toEqual(bytes);
    expect(parsers).not.toHaveBeenCalled();

    const v5 = connect(port, '127.0.0.1');
    cleanups.push(() => v5.destroy());
    v5.write(connectPacket(5));
    await until(() => (fronts[1]?.received.length ?? 0) > 0);
    // Both directions are parsed for an MQTT 5 device: it reaches the broker as MQTT 3.1.1.
    expect(parsers).toHaveBeenCalledTimes(2);
    const seen = mqttPacket.parser({ protocolVersion: 4 });
    const packets: mqttPacket.Packet[] = [];
    seen.on('packet', (packet) => packets.push(packet));
    seen.parse(Buffer.concat(fronts[1]!.received));
    expect(packets[0]).toMatchObject({ cmd: 'connect', protocolVersion: 4, clientId: 'CC0001' });
  });
});
