import { createServer } from 'node:net';
import mqtt from 'mqtt';
import { describe, expect, it } from 'vitest';
import { startEmbeddedBroker } from './embedded-broker';

describe('embedded MQTT broker', () => {
  it('accepts a device whose serial and key check out and refuses others with "not authorized"', async () => {
    const broker = await startEmbeddedBroker(0, '127.0.0.1', {
      authenticate: async (serial, key) => serial === 'SIM9001' && key === 'k1',
    });
    try {
      const good = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
        clientId: 'SIM9001',
        username: 'SIM9001',
        password: 'k1',
        reconnectPeriod: 0,
      });
      expect(good.connected).toBe(true);
      await good.endAsync();
      const refused = mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
        clientId: 'SIM9001',
        username: 'SIM9001',
        password: 'wrong',
        reconnectPeriod: 0,
      });
      await expect(refused).rejects.toThrow(/Not authorized/i);
    } finally {
      await broker.close();
    }
  });

  it('explains a taken port by naming MQTT_PORT', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      await expect(
        startEmbeddedBroker(port, '127.0.0.1', { authenticate: async () => false }),
      ).rejects.toThrow(`Port ${port} (MQTT_PORT) is already in use. Set MQTT_PORT to a free port`);
    } finally {
      blocker.close();
    }
  });
});
