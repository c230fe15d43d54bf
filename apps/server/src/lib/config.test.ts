import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('configuration', () => {
  it('has the defaults of API.md', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      mqttPort: 1883,
      demo: true,
      databaseUrl: undefined,
      smtpUrl: undefined,
    });
    expect(config.dataDir).toBe(path.resolve('./data'));
  });

  it('turns the demo off with a database server unless DEMO says otherwise, and the broker off with MQTT_URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://localhost/cc' }).demo).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://localhost/cc', DEMO: '1' }).demo).toBe(true);
    expect(loadConfig({ DEMO: 'off' }).demo).toBe(false);
    expect(loadConfig({ MQTT_URL: 'mqtt://127.0.0.1:1883' }).mqttPort).toBeNull();
  });

  it('names the variable when a value is wrong', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ MQTT_PORT: '70000' })).toThrow(/MQTT_PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ DEMO: 'maybe' })).toThrow(/DEMO/);
  });
});
