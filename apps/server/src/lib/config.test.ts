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

  it('prepares the hot statements on PostgreSQL unless DATABASE_PREPARED_STATEMENTS is off', () => {
    expect(loadConfig({}).databasePreparedStatements).toBe(true);
    expect(loadConfig({ DATABASE_PREPARED_STATEMENTS: '0' }).databasePreparedStatements).toBe(false);
    expect(() => loadConfig({ DATABASE_PREPARED_STATEMENTS: 'maybe' })).toThrow(
      /DATABASE_PREPARED_STATEMENTS/,
    );
  });

  it('names the instance on the external broker by host and HTTP port, the same at every start, or by MQTT_CLIENT_ID', () => {
    const first = loadConfig({ PORT: '8081' }).mqttClientId;
    expect(first).toMatch(/^coldchain-[A-Za-z0-9_-]+-8081$/);
    expect(loadConfig({ PORT: '8081' }).mqttClientId).toBe(first);
    expect(loadConfig({ PORT: '8082' }).mqttClientId).not.toBe(first);
    expect(loadConfig({ MQTT_CLIENT_ID: 'cc-a' }).mqttClientId).toBe('cc-a');
    expect(() => loadConfig({ MQTT_CLIENT_ID: 'has spaces' })).toThrow(/MQTT_CLIENT_ID/);
  });

  it('e-mails backup files up to REPORT_ATTACH_MAX_BYTES as attachments, 10 MiB by default', () => {
    expect(loadConfig({}).reportAttachMaxBytes).toBe(10_485_760);
    expect(loadConfig({ REPORT_ATTACH_MAX_BYTES: '0' }).reportAttachMaxBytes).toBe(0);
    expect(() => loadConfig({ REPORT_ATTACH_MAX_BYTES: '-1' })).toThrow(/REPORT_ATTACH_MAX_BYTES/);
  });

  it('turns /metrics on only with a METRICS_TOKEN of at least 16 characters', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: '' }).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: 'a'.repeat(16) }).metricsToken).toBe('a'.repeat(16));
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
  });

  it('names the variable when a value is wrong', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ MQTT_PORT: '70000' })).toThrow(/MQTT_PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ DEMO: 'maybe' })).toThrow(/DEMO/);
  });

  it('chooses the WhatsApp provider by WHATSAPP_PROVIDER and names what a bad choice lacks', () => {
    expect(loadConfig({}).whatsappProvider).toBe('twilio');
    expect(() => loadConfig({ WHATSAPP_PROVIDER: 'meta' })).toThrow(
      "WHATSAPP_PROVIDER: expected 'twilio' (TWILIO_WHATSAPP_FROM) or 'cloud' (WHATSAPP_CLOUD_*)",
    );
    expect(() => loadConfig({ WHATSAPP_PROVIDER: 'cloud', WHATSAPP_CLOUD_TOKEN: 'EAAG' })).toThrow(
      "WHATSAPP_PROVIDER: 'cloud' needs WHATSAPP_CLOUD_PHONE_NUMBER_ID, WHATSAPP_CLOUD_TEMPLATE",
    );
    expect(() => loadConfig({ WHATSAPP_CLOUD_API_VERSION: '21' })).toThrow(/WHATSAPP_CLOUD_API_VERSION/);
    const cloud = loadConfig({
      WHATSAPP_PROVIDER: 'cloud',
      WHATSAPP_CLOUD_TOKEN: 'EAAG',
      WHATSAPP_CLOUD_PHONE_NUMBER_ID: '1065',
      WHATSAPP_CLOUD_TEMPLATE: 'coldchain_alarm',
      PUBLIC_URL: 'https://cold.example.com/',
    });
    expect(cloud).toMatchObject({
      whatsappProvider: 'cloud',
      publicUrl: 'https://cold.example.com',
      whatsappCloud: {
        baseUrl: 'https://graph.facebook.com',
        apiVersion: 'v21.0',
        template: 'coldchain_alarm',
      },
    });
  });
});
