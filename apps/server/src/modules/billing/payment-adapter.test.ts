import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  createCheckoutSession,
  loadPaymentConfig,
  onlinePaymentOn,
  PaymentProviderError,
  signWebhook,
  verifyWebhookSignature,
} from './payment-adapter';

describe('payment adapter', () => {
  it('is off unless the URL, the secret key and the webhook secret are all set', () => {
    expect(onlinePaymentOn(loadPaymentConfig({}))).toBe(false);
    expect(onlinePaymentOn(loadPaymentConfig({ PAYMENT_API_URL: 'http://x', PAYMENT_SECRET_KEY: 'k' }))).toBe(
      false,
    );
    const on = loadPaymentConfig({
      PAYMENT_API_URL: 'http://x/',
      PAYMENT_SECRET_KEY: 'k',
      PAYMENT_WEBHOOK_SECRET: 'w',
    });
    expect(onlinePaymentOn(on)).toBe(true);
    expect(on?.apiUrl).toBe('http://x');
  });

  it('verifies t and v1 over the raw body within five minutes', () => {
    const now = 1_800_000_000_000;
    const t = String(now / 1000);
    const body = '{"a":1}';
    const v1 = signWebhook('whsec', t, body);
    expect(verifyWebhookSignature('whsec', `t=${t},v1=${v1}`, body, now)).toBe(true);
    expect(verifyWebhookSignature('whsec', `t=${t},v1=00,v1=${v1}`, body, now)).toBe(true);
    expect(verifyWebhookSignature('whsec', `t=${t},v1=${v1}`, '{"a":2}', now)).toBe(false);
    expect(verifyWebhookSignature('other', `t=${t},v1=${v1}`, body, now)).toBe(false);
    expect(verifyWebhookSignature('whsec', `t=${t},v1=${v1}`, body, now + 301_000)).toBe(false);
    expect(verifyWebhookSignature('whsec', `t=${t},v1=${v1}`, body, now + 299_000)).toBe(true);
    expect(verifyWebhookSignature('whsec', `v1=${v1}`, body, now)).toBe(false);
    expect(verifyWebhookSignature('whsec', undefined, body, now)).toBe(false);
  });

  it('reports a provider error without leaking its answer', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"boom"}}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const config = loadPaymentConfig({
      PAYMENT_API_URL: url,
      PAYMENT_SECRET_KEY: 'k',
      PAYMENT_WEBHOOK_SECRET: 'w',
    })!;
    await expect(
      createCheckoutSession(config, { orderId: 1, orderNo: 'CC1', amountCents: 100, description: 'x' }),
    ).rejects.toBeInstanceOf(PaymentProviderError);
    await new Promise((resolve) => server.close(resolve));
  });
});
