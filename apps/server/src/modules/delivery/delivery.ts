import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { Config } from '../../lib/config';
import type { Mailer } from '../notify/mailer';
import { callChannel } from './channels/call';
import type { ChannelAdapter } from './channels/channel';
import { emailChannel } from './channels/email';
import { smsChannel } from './channels/sms';
import type { StatusCallbackUrl } from './channels/twilio';
import { wechatChannel } from './channels/wechat';
import { whatsappChannel } from './channels/whatsapp';
import { whatsappCloudChannel } from './channels/whatsapp-cloud';
import { type Clock, DeliveryWorker } from './delivery-worker';
import { TWILIO_STATUS_PATH } from './receipts/twilio-status';

/**
 * The address Twilio reports a message's fate to. It names the notification, and Twilio signs the
 * whole address, so a receipt cannot be pointed at another row. Without PUBLIC_URL none is asked.
 */
export function twilioStatusCallback(publicUrl: string | undefined): StatusCallbackUrl {
  if (!publicUrl) return null;
  return (notificationId) => `${publicUrl}${TWILIO_STATUS_PATH}?notification=${notificationId}`;
}

/** The worker with every channel adapter built from the configuration (not started); `clock` is for tests. */
export function createDeliveryWorker(
  db: Db,
  config: Config,
  mailer: Mailer | null,
  log: FastifyBaseLogger,
  clock?: Clock,
) {
  const timeout = config.delivery.httpTimeoutMs;
  const callback = twilioStatusCallback(config.publicUrl);
  const adapters: ChannelAdapter[] = [
    emailChannel(mailer, timeout),
    smsChannel(config.twilio, timeout, callback),
    callChannel(config.twilio, timeout, callback),
    config.whatsappProvider === 'cloud'
      ? whatsappCloudChannel(config.whatsappCloud, timeout)
      : whatsappChannel(config.twilio, timeout, callback),
    wechatChannel(config.wechat, timeout),
  ];
  return new DeliveryWorker(db, new Map(adapters.map((a) => [a.channel, a])), config.delivery, log, clock);
}
