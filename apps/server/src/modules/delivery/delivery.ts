import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { Config } from '../../lib/config';
import type { Mailer } from '../notify/mailer';
import { callChannel } from './channels/call';
import type { ChannelAdapter } from './channels/channel';
import { emailChannel } from './channels/email';
import { smsChannel } from './channels/sms';
import { wechatChannel } from './channels/wechat';
import { whatsappChannel } from './channels/whatsapp';
import { type Clock, DeliveryWorker } from './delivery-worker';

/** The worker with every channel adapter built from the configuration (not started); `clock` is for tests. */
export function createDeliveryWorker(
  db: Db,
  config: Config,
  mailer: Mailer | null,
  log: FastifyBaseLogger,
  clock?: Clock,
) {
  const timeout = config.delivery.httpTimeoutMs;
  const adapters: ChannelAdapter[] = [
    emailChannel(mailer, timeout),
    smsChannel(config.twilio, timeout),
    callChannel(config.twilio, timeout),
    whatsappChannel(config.twilio, timeout),
    wechatChannel(config.wechat, timeout),
  ];
  return new DeliveryWorker(db, new Map(adapters.map((a) => [a.channel, a])), config.delivery, log, clock);
}
