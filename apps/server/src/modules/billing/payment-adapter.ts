import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * The online payment adapter (issue 17 item 2): a Stripe-compatible Checkout Session API. Any
 * provider that speaks it (Stripe itself, or a gateway with the same wire format) works by its
 * base URL; with no configuration the console offers bank transfer only.
 */

export interface PaymentConfig {
  /** e.g. https://api.stripe.com; unset = online payment off. */
  apiUrl: string;
  secretKey: string;
  webhookSecret: string;
  /** Where the provider sends the browser back (the console's serviceList page). */
  returnUrl: string;
  /** The supplier's bank account for transfers, shown to the company as written. */
  transferDetails: string;
}

export function loadPaymentConfig(env: NodeJS.ProcessEnv = process.env): PaymentConfig | null {
  const transferDetails = env.PAYMENT_TRANSFER_DETAILS?.trim() ?? '';
  const apiUrl = env.PAYMENT_API_URL?.trim().replace(/\/+$/, '') ?? '';
  const secretKey = env.PAYMENT_SECRET_KEY?.trim() ?? '';
  const webhookSecret = env.PAYMENT_WEBHOOK_SECRET?.trim() ?? '';
  const returnUrl = env.PAYMENT_RETURN_URL?.trim() || 'http://localhost:8080/user/addedServices/serviceList';
  // All three or none: half a configuration would take money it cannot confirm.
  if (!apiUrl || !secretKey || !webhookSecret) {
    return { apiUrl: '', secretKey: '', webhookSecret: '', returnUrl, transferDetails };
  }
  return { apiUrl, secretKey, webhookSecret, returnUrl, transferDetails };
}

export function onlinePaymentOn(config: PaymentConfig | null): config is PaymentConfig {
  return !!config?.apiUrl && !!config.secretKey && !!config.webhookSecret;
}

export interface CheckoutRequest {
  orderId: number;
  orderNo: string;
  amountCents: number;
  description: string;
}

export interface CheckoutSession {
  id: string;
  url: string;
}

export class PaymentProviderError extends Error {}

/**
 * `POST /v1/checkout/sessions`, form-encoded with bracketed keys as Stripe expects, the secret key
 * as a Bearer token. The order id rides as `client_reference_id` and metadata, so the webhook
 * finds the order without trusting anything else in the event.
 */
export async function createCheckoutSession(
  config: PaymentConfig,
  order: CheckoutRequest,
  fetchImpl: typeof fetch = fetch,
): Promise<CheckoutSession> {
  const back = new URL(config.returnUrl);
  back.searchParams.set('order', String(order.orderId));
  const form = new URLSearchParams({
    mode: 'payment',
    client_reference_id: String(order.orderId),
    'metadata[orderId]': String(order.orderId),
    'metadata[orderNo]': order.orderNo,
    'line_items[0][quantity]': '1',
    'line_items[0][price_data][currency]': 'myr',
    'line_items[0][price_data][unit_amount]': String(order.amountCents),
    'line_items[0][price_data][product_data][name]': order.description,
    success_url: `${back.toString()}&paid=1`,
    cancel_url: back.toString(),
  });
  let response: Response;
  try {
    response = await fetchImpl(`${config.apiUrl}/v1/checkout/sessions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${config.secretKey}`,
        'content-type': 'application/x-www-form-urlencoded',
        // A retry of the same order's attempt must not open a second session on the provider.
        'idempotency-key': `order-${order.orderId}-${order.amountCents}`,
      },
      body: form.toString(),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    throw new PaymentProviderError(`Payment provider unreachable: ${(error as Error).message}`);
  }
  const body = (await response.json().catch(() => null)) as { id?: unknown; url?: unknown } | null;
  if (!response.ok || typeof body?.id !== 'string' || typeof body.url !== 'string') {
    throw new PaymentProviderError(`Payment provider answered HTTP ${response.status}`);
  }
  return { id: body.id, url: body.url };
}

/** Stripe's default: an event older than five minutes is refused (replays). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * Checks a `Stripe-Signature` header (`t=<seconds>,v1=<hex>[,v1=...]`): v1 is HMAC-SHA256 of
 * `${t}.${rawBody}` with the webhook secret. The body must be the bytes as received.
 */
export function verifyWebhookSignature(
  secret: string,
  header: string | undefined,
  rawBody: string,
  nowMs = Date.now(),
): boolean {
  if (!header || !secret) return false;
  const parts = header.split(',').map((p) => p.trim().split('='));
  const t = parts.find(([k]) => k === 't')?.[1];
  const signatures = parts.filter(([k]) => k === 'v1').map(([, v]) => v ?? '');
  if (!t || !/^\d{1,12}$/.test(t) || signatures.length === 0) return false;
  if (Math.abs(nowMs / 1000 - Number(t)) > WEBHOOK_TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(signWebhook(secret, t, rawBody), 'hex');
  return signatures.some((s) => {
    const given = Buffer.from(s, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

export function signWebhook(secret: string, t: string, rawBody: string): string {
  return createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex');
}
