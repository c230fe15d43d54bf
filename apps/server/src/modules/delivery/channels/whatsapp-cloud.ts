import { type ChannelAdapter, numberField, ProviderError, phoneOf, providerFetch } from './channel';
import { cloudErrorIsPermanent } from './provider-errors';

/** Meta's WhatsApp Cloud API settings (WHATSAPP_PROVIDER=cloud, WHATSAPP_CLOUD_*). */
export interface WhatsappCloudConfig {
  /** `https://graph.facebook.com`, or a compatible server. */
  baseUrl: string;
  /** Graph API version in the path, e.g. `v21.0`. */
  apiVersion: string;
  token: string;
  phoneNumberId: string;
  /** Name of an approved message template whose body has one variable, `{{1}}`: the alarm text. */
  template: string;
  /** Signs the status webhooks (X-Hub-Signature-256); without it webhooks are refused. */
  appSecret?: string;
  /** Answers Meta's webhook verification (`hub.verify_token`). */
  verifyToken?: string;
}

/** The template's language per recipient language: it must be approved in both. */
export const CLOUD_TEMPLATE_LANGUAGE = { en: 'en', cn: 'zh_CN' } as const;

/**
 * WhatsApp through the Cloud API: POST `{base}/{version}/{phone-number-id}/messages` with the
 * Bearer token. A business may only open a conversation with an approved template, so the alarm
 * goes as the template WHATSAPP_CLOUD_TEMPLATE with the alarm text as its one parameter. The
 * answer is judged by its body: a message is sent only when it names its `wamid`, which the status
 * webhooks later name. The Cloud API has no idempotency key: a retry after a lost answer can
 * reach the phone twice.
 */
export function whatsappCloudChannel(
  config: WhatsappCloudConfig | undefined,
  timeoutMs: number,
): ChannelAdapter {
  return {
    channel: 'whatsapp',
    configured: Boolean(config),
    address: phoneOf,
    send: async (message) => {
      const c = config!;
      const url = `${c.baseUrl.replace(/\/+$/, '')}/${c.apiVersion}/${encodeURIComponent(c.phoneNumberId)}/messages`;
      // Template parameters may not hold new lines, tabs or more than four spaces in a row.
      const text = message.text.replace(/[\t\r\n]+/g, ' ').replace(/ {4,}/g, '   ');
      const { status, ok, body, json } = await providerFetch(
        url,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${c.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            messaging_product: 'whatsapp',
            recipient_type: 'individual',
            to: message.to.replace(/^\+/, ''),
            type: 'template',
            template: {
              name: c.template,
              language: { code: CLOUD_TEMPLATE_LANGUAGE[message.language] },
              components: [{ type: 'body', parameters: [{ type: 'text', text }] }],
            },
          }),
        },
        timeoutMs,
      );
      const error = (json?.error ?? null) as { code?: unknown; message?: unknown } | null;
      const code = numberField(error?.code);
      if (!ok || error) {
        throw new ProviderError(
          `WhatsApp Cloud answered ${status}${code !== null ? `, error ${code}` : ''}: ${String(error?.message ?? body.slice(0, 200))}`,
          cloudErrorIsPermanent(code, ok ? 500 : status),
        );
      }
      const sent = (json?.messages as { id?: unknown; message_status?: unknown }[] | undefined)?.[0];
      if (typeof sent?.id !== 'string' || sent.id === '') {
        throw new ProviderError(
          `WhatsApp Cloud answered ${status} without a message id: ${body.slice(0, 200)}`,
        );
      }
      // `paused`: Meta holds the template for its quality rating; the message is not on its way.
      if (sent.message_status === 'paused') {
        throw new ProviderError('WhatsApp Cloud: the template is paused (132015)', true);
      }
      return sent.id;
    },
  };
}
