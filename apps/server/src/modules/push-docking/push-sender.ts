import { OutboundGuard, OutboundRefused, postChecked } from '../../lib/outbound-guard';
import { adapterFor, hmacSignature } from './push-adapters';
import { PUSH_MAX_RESPONSE_BYTES } from './push-options';

/** `X-Signature`: `sha256=` and the lowercase hex HMAC-SHA256 of the raw body (API.md "Push docking"). */
export function pushSignature(secret: string, body: string): string {
  return hmacSignature(secret, body);
}

/** Which adapter shapes the request, and its key id (a company's own address: 'push', none). */
export interface SendAs {
  adapter: string;
  keyId: string | null;
}
const COMPANY_PUSH: SendAs = { adapter: 'push', keyId: null };

export interface PushAttempt {
  ok: boolean;
  httpStatus: number | null;
  durationMs: number | null;
  /** Why it failed, for the deliveries page; '' on success. */
  error: string;
  /** The address itself is refused (SSRF rules), not just unreachable this time. */
  refused: boolean;
}

/**
 * POSTs one delivery. The address is resolved and checked again on every attempt (a name may
 * point elsewhere since it was saved), the connection goes to the checked address, no redirect is
 * followed, and the answer is read to at most 64 KB within the timeout.
 */
export class PushSender {
  constructor(
    readonly guard: OutboundGuard,
    private readonly timeoutMs: number,
  ) {}

  static fromAllowList(allowHosts: string, timeoutMs: number) {
    return new PushSender(new OutboundGuard(allowHosts), timeoutMs);
  }

  /** Whether the platform may reach `url`: refused (a reason) or allowed (null). */
  async refusal(url: string): Promise<string | null> {
    try {
      await this.guard.resolve(url);
      return null;
    } catch (error) {
      if (error instanceof OutboundRefused) return error.message;
      throw error;
    }
  }

  async send(
    url: string,
    secret: string,
    delivery: { id: number; event: string; body: string },
    as: SendAs = COMPANY_PUSH,
  ): Promise<PushAttempt> {
    let target: Awaited<ReturnType<OutboundGuard['resolve']>>;
    try {
      target = await this.guard.resolve(url);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, httpStatus: null, durationMs: null, error: `refused: ${message}`, refused: true };
    }
    const started = performance.now();
    try {
      const answer = await postChecked(
        target,
        delivery.body,
        adapterFor(as.adapter).headers({
          deliveryId: delivery.id,
          event: delivery.event,
          body: delivery.body,
          secret,
          keyId: as.keyId,
          now: new Date(),
        }),
        { timeoutMs: this.timeoutMs, maxResponseBytes: PUSH_MAX_RESPONSE_BYTES },
      );
      const ok = answer.status >= 200 && answer.status < 300;
      return {
        ok,
        httpStatus: answer.status,
        durationMs: answer.durationMs,
        error: ok ? '' : `HTTP ${answer.status}${answer.body ? `: ${answer.body.slice(0, 200)}` : ''}`,
        refused: false,
      };
    } catch (error) {
      return {
        ok: false,
        httpStatus: null,
        durationMs: Math.round(performance.now() - started),
        error: error instanceof Error ? error.message : String(error),
        refused: false,
      };
    }
  }
}
