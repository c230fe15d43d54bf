import { describe, expect, it } from 'vitest';
import { call, testConfig, useTestApp } from '../../test/build-app';
import { publicMqttUrl } from './system.routes';

describe('client configuration: map tiles and device addresses', () => {
  // The test's requests come from loopback, the proxy trusted here (TRUST_PROXY=loopback).
  const ctx = useTestApp({
    mapTileUrl: 'https://tiles.example.org/{z}/{x}/{y}.png',
    mqttPort: null,
    trustProxy: ['loopback'],
  });

  it('hands the console the tile source and the MQTT and HTTP addresses devices use', async () => {
    const { body } = await call<Record<string, unknown>>(
      ctx.app,
      '/api/system/clientConfig',
      {},
      {
        headers: { host: 'cold.example.org:8443', 'x-forwarded-proto': 'https' },
      },
    );
    expect(body.data).toMatchObject({
      mapTileUrl: 'https://tiles.example.org/{z}/{x}/{y}.png',
      deviceMqttUrl: 'mqtt://cold.example.org:1883',
      deviceHttpUrl: 'https://cold.example.org:8443/device/v1/up',
    });
  });
});

describe('client configuration defaults', () => {
  const ctx = useTestApp();

  it('believes X-Forwarded-Proto only from a trusted proxy (none by default)', async () => {
    const { body } = await call<Record<string, unknown>>(
      ctx.app,
      '/api/system/clientConfig',
      {},
      { headers: { host: 'cold.example.org:8443', 'x-forwarded-proto': 'https' } },
    );
    expect(body.data).toMatchObject({ deviceHttpUrl: 'http://cold.example.org:8443/device/v1/up' });
  });

  it('has no tile source unless MAP_TILE_URL is set', async () => {
    const { body } = await call<Record<string, unknown>>(ctx.app, '/api/system/clientConfig');
    expect(body.data).toMatchObject({ mapTileUrl: '' });
  });

  it('PUBLIC_MQTT_URL wins; an external broker is named without its credentials', () => {
    const base = testConfig({ mqttPort: 1884 });
    expect(publicMqttUrl(base, 'console.example.org')).toBe('mqtt://console.example.org:1884');
    expect(publicMqttUrl({ ...base, publicMqttUrl: 'mqtts://iot.example.org:8883' }, 'x')).toBe(
      'mqtts://iot.example.org:8883',
    );
    expect(publicMqttUrl({ ...base, mqttUrl: 'mqtt://svc:secret@broker.example.org:1883' }, 'x')).toBe(
      'mqtt://broker.example.org:1883',
    );
  });
});
