import { hostname } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import {
  DEFAULT_RECOVERY_PRICES,
  DEFAULT_RENEWAL_PRICES,
  type PriceConfig,
  parseTierPrices,
  type TierPrices,
} from '../modules/billing/prices';
import type { TwilioConfig } from '../modules/delivery/channels/twilio';
import type { WechatConfig } from '../modules/delivery/channels/wechat';
import type { WhatsappCloudConfig } from '../modules/delivery/channels/whatsapp-cloud';
import type { DeliveryOptions } from '../modules/delivery/delivery-worker';
import { parseS3Url, type S3Settings } from '../modules/files/store/s3-url';
import type { DeviceLimits } from '../modules/ingest/device-limits';
import type { WechatAccountConfig } from '../modules/profile/wechat-account';
import type { PushOptions } from '../modules/push-docking/push-options';
import { parseFrameAncestors } from '../plugins/security-headers';
import { parseTrustProxy, type TrustProxy } from './trust-proxy';

/**
 * The environment of API.md "Configuration", read and checked once at start. A bad value stops
 * the server with a message that names the variable, never a stack trace.
 */
const flag = z
  .enum(['1', '0', 'true', 'false', 'on', 'off', 'yes', 'no'])
  .transform((v) => ['1', 'true', 'on', 'yes'].includes(v));

const port = z.coerce.number().int().min(0).max(65535);

/** `basic:10,standard:15,elite:20,premium:30` (modules/billing/prices.ts). */
const tierPrices = z.string().transform((text, ctx): TierPrices => {
  const parsed = parseTierPrices(text);
  if (typeof parsed === 'string') {
    ctx.addIssue({ code: 'custom', message: parsed });
    return z.NEVER;
  }
  return parsed;
});

const EnvSchema = z.object({
  PORT: port.default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  UPLOAD_DIR: z.string().optional(),
  // Empty counts as unset (`S3_URL=` in a compose file): files stay in UPLOAD_DIR.
  S3_URL: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .transform((text, ctx): S3Settings => {
        const parsed = parseS3Url(text);
        if (typeof parsed !== 'string') return parsed;
        ctx.addIssue({ code: 'custom', message: parsed });
        return z.NEVER;
      })
      .optional(),
  ),
  DATABASE_URL: z.string().url().optional(),
  DATABASE_PREPARED_STATEMENTS: flag.optional(),
  MQTT_URL: z.string().url().optional(),
  MQTT_PORT: port.default(1883),
  MQTT_SHARE_GROUP: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .default('coldchain'),
  MQTT_CLIENT_ID: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,48}$/)
    .optional(),
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default('ColdChain <no-reply@coldchain.local>'),
  CODE_RATE_LIMIT: z.coerce.number().int().positive().default(10),
  DEMO: flag.optional(),
  HELP_URL: z.string().default('https://github.com/coldchain-platform/coldchain/tree/main/docs'),
  WEB_DIST: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SESSION_IDLE_HOURS: z.coerce.number().positive().default(168),
  LOGIN_RATE_LIMIT: z.coerce.number().int().positive().default(30),
  BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(1_048_576),
  REPORT_ATTACH_MAX_BYTES: z.coerce.number().int().nonnegative().default(10_485_760),
  SECRET_KEY: z
    .string()
    .min(32, { error: 'must be at least 32 characters (e.g. `openssl rand -hex 32`)' })
    .optional(),
  OPEN_API_RATE_PER_MINUTE: z.coerce.number().int().positive().default(600),
  PUSH_ALLOW_HOSTS: z.string().default(''),
  PUSH_POLL_MS: z.coerce.number().int().positive().default(2000),
  PUSH_RETRY_BASE_MS: z.coerce.number().int().positive().default(10_000),
  PUSH_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  PUSH_LEASE_MS: z.coerce.number().int().positive().default(60_000),
  PUSH_STOP_AFTER_HOURS: z.coerce.number().positive().default(24),
  MQTT_MAX_PACKET_BYTES: z.coerce.number().int().min(1024).max(268_435_455).default(1_048_576),
  DEVICE_MESSAGES_PER_MINUTE: z.coerce.number().int().positive().default(120),
  DEVICE_CONNECTS_PER_MINUTE: z.coerce.number().int().positive().default(10),
  DEVICE_CLOCK_AHEAD_SECONDS: z.coerce.number().int().positive().default(300),
  DEVICE_BACKFILL_DAYS: z.coerce.number().int().positive().default(90),
  CONTACT_PHONE: z.string().default(''),
  CONTACT_EMAIL: z.string().default('support@example.com'),
  CONTACT_ADDRESS: z.string().default(''),
  DELIVERY_POLL_MS: z.coerce.number().int().positive().default(1000),
  DELIVERY_MAX_ATTEMPTS: z.coerce.number().int().positive().default(6),
  DELIVERY_RETRY_BASE_MS: z.coerce.number().int().positive().default(30_000),
  DELIVERY_LEASE_MS: z.coerce.number().int().positive().default(300_000),
  DELIVERY_HTTP_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  DELIVERY_DAILY_CAP: z.coerce.number().int().positive().default(40),
  TWILIO_BASE_URL: z.string().url().default('https://api.twilio.com'),
  TWILIO_ACCOUNT_SID: z.string().optional(),
  TWILIO_AUTH_TOKEN: z.string().optional(),
  TWILIO_FROM: z.string().optional(),
  TWILIO_WHATSAPP_FROM: z.string().optional(),
  WECHAT_BASE_URL: z.string().url().default('https://api.weixin.qq.com'),
  WECHAT_APP_ID: z.string().optional(),
  WECHAT_APP_SECRET: z.string().optional(),
  WECHAT_TEMPLATE_ID: z.string().optional(),
  WECHAT_OAUTH_URL: z.string().url().default('https://open.weixin.qq.com'),
  PUBLIC_URL: z.string().url().optional(),
  WHATSAPP_PROVIDER: z
    .enum(['twilio', 'cloud'], {
      error: "expected 'twilio' (TWILIO_WHATSAPP_FROM) or 'cloud' (WHATSAPP_CLOUD_*)",
    })
    .default('twilio'),
  WHATSAPP_CLOUD_BASE_URL: z.string().url().default('https://graph.facebook.com'),
  WHATSAPP_CLOUD_API_VERSION: z
    .string()
    .regex(/^v\d+\.\d+$/)
    .default('v21.0'),
  WHATSAPP_CLOUD_TOKEN: z.string().optional(),
  WHATSAPP_CLOUD_PHONE_NUMBER_ID: z.string().optional(),
  WHATSAPP_CLOUD_TEMPLATE: z.string().optional(),
  WHATSAPP_CLOUD_APP_SECRET: z.string().optional(),
  WHATSAPP_CLOUD_VERIFY_TOKEN: z.string().optional(),
  PRICE_RENEWAL_RM: tierPrices.prefault(DEFAULT_RENEWAL_PRICES),
  PRICE_RECOVERY_RM: tierPrices.prefault(DEFAULT_RECOVERY_PRICES),
  PARAMETER_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  MKT_ACTIVATION_ENERGY_KJ: z.coerce.number().min(10).max(300).default(83.144),
  STARTER_CREDITS: z.coerce.number().int().min(0).max(1_000_000).default(100),
  OPERATOR_ACCOUNTS: z.string().default(''),
  MAP_TILE_URL: z.string().default(''),
  PUBLIC_MQTT_URL: z.string().url().optional(),
  // Empty counts as unset (`METRICS_TOKEN=` in a compose file); a short token is guessable.
  METRICS_TOKEN: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string().min(16, { error: 'must be at least 16 characters (e.g. `openssl rand -hex 24`)' }).optional(),
  ),
  TRUST_PROXY: z
    .string()
    .default('')
    .transform((text, ctx): TrustProxy => {
      const parsed = parseTrustProxy(text);
      if (typeof parsed !== 'string') return parsed;
      ctx.addIssue({ code: 'custom', message: parsed });
      return z.NEVER;
    }),
  DASHBOARD_FRAME_ANCESTORS: z
    .string()
    .default('')
    .transform((text, ctx): string[] => {
      const parsed = parseFrameAncestors(text);
      if (typeof parsed !== 'string') return parsed;
      ctx.addIssue({ code: 'custom', message: parsed });
      return z.NEVER;
    }),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Uploaded files (profile pictures, feedback images, certificates); default `<dataDir>/uploads`. */
  uploadDir: string;
  /**
   * S3_URL: uploads and generated files in this S3-compatible bucket instead of `uploadDir`, so
   * every instance sees them (modules/files/store, docs/file-storage.md).
   */
  s3?: S3Settings;
  databaseUrl?: string;
  /**
   * DATABASE_PREPARED_STATEMENTS (default on): the hot statements are prepared on each PostgreSQL
   * connection (db/pg-planned-once.ts). Off for a pooler in transaction mode that does not carry
   * prepared statements between its server connections.
   */
  databasePreparedStatements: boolean;
  mqttUrl?: string;
  /** 0 picks a free port (tests); null turns the embedded broker off. */
  mqttPort: number | null;
  /** Shared-subscription group on the external broker. */
  mqttShareGroup: string;
  /**
   * This instance's client ids on the external broker (`-1`, `-2`... appended per connection):
   * the same after a restart, so a process killed without a drain resumes its persistent session.
   */
  mqttClientId: string;
  smtpUrl?: string;
  mailFrom: string;
  /** Code-sending and registration calls per minute per client address. */
  codeRateLimitPerMinute: number;
  demo: boolean;
  helpUrl: string;
  webDist: string;
  logLevel: string;
  sessionIdleMs: number;
  loginRateLimitPerMinute: number;
  bodyLimitBytes: number;
  /** Backup files up to this size are e-mailed as attachments; larger ones as an expiring link (modules/report-tasks). */
  reportAttachMaxBytes: number;
  /**
   * Encrypts secrets the server must read back (open-API key secrets; lib/secret-box.ts). Unset:
   * a random key kept in `<dataDir>/secret.key`, made at the first start. Instances sharing one
   * database must share it.
   */
  secretKey?: string;
  /** Requests per minute one open-API key may make (modules/open-api). */
  openApiRatePerMinute: number;
  /** What one device may send and when (modules/ingest/device-limits.ts). */
  deviceLimits: DeviceLimits;
  /** Push docking's delivery worker (modules/push-docking). */
  push: PushOptions;
  contact: { phone: string; email: string; address: string };
  /** Alarm message delivery (modules/delivery). */
  delivery: DeliveryOptions;
  /** Set when TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN are: SMS and calls need TWILIO_FROM too, WhatsApp TWILIO_WHATSAPP_FROM. */
  twilio?: TwilioConfig;
  /** Set when WECHAT_APP_ID, WECHAT_APP_SECRET and WECHAT_TEMPLATE_ID are. */
  wechat?: WechatConfig;
  /**
   * The platform's address as providers reach it (`https://cold.example.com`): delivery receipts
   * (Twilio status callbacks) are requested only when it is set.
   */
  publicUrl?: string;
  /** Which API carries WhatsApp alarms: Twilio (TWILIO_WHATSAPP_FROM) or Meta's Cloud API. */
  whatsappProvider: 'twilio' | 'cloud';
  /** Set when WHATSAPP_CLOUD_TOKEN, WHATSAPP_CLOUD_PHONE_NUMBER_ID and WHATSAPP_CLOUD_TEMPLATE are. */
  whatsappCloud?: WhatsappCloudConfig;
  /** Set when WECHAT_APP_ID and WECHAT_APP_SECRET are: binding a user's WeChat (OAuth code -> openid). */
  wechatAccount?: WechatAccountConfig;
  /** Renewal and data recovery prices per tier per month (modules/billing). */
  prices: PriceConfig;
  /** How long a parameter read or push waits for the device's ack before it failed. */
  parameterTimeoutMs: number;
  /** Default activation energy of mean kinetic temperature, kJ/mol (USP <1079>: 83.144). */
  mktActivationEnergyKj: number;
  /** Message credit a newly founded company starts with, so its first alarms reach people. */
  starterCredits: number;
  /** Map tile template (`https://tile.example.com/{z}/{x}/{y}.png`); empty = markers without tiles. */
  mapTileUrl: string;
  /** The MQTT address devices use, shown in the console; unset = derived from the request host. */
  publicMqttUrl?: string;
  /** Proxies whose X-Forwarded-For / -Proto are believed (lib/trust-proxy.ts); false = none. */
  trustProxy: TrustProxy;
  /** Origins that may frame the full-screen dashboards; empty = none (plugins/security-headers.ts). */
  dashboardFrameAncestors: string[];
  /**
   * Accounts (e-mail or mobile, comma-separated in OPERATOR_ACCOUNTS) made platform operators at
   * start (modules/operator/operators.service.ts); existing operators are never demoted by it.
   */
  operatorAccounts: string[];
  /** Bearer token `/metrics` requires; unset = `/metrics` off (404) (modules/system/metrics.routes.ts). */
  metricsToken?: string;
}

export class ConfigError extends Error {}

const repoRoot = path.resolve(import.meta.dirname, '../../../..');

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  // Choosing the Cloud API and leaving out one of its settings is a mistake, not "not configured".
  if (e.WHATSAPP_PROVIDER === 'cloud') {
    const missing = (
      ['WHATSAPP_CLOUD_TOKEN', 'WHATSAPP_CLOUD_PHONE_NUMBER_ID', 'WHATSAPP_CLOUD_TEMPLATE'] as const
    ).filter((name) => !e[name]);
    if (missing.length > 0)
      throw new ConfigError(
        `Invalid configuration:\n  WHATSAPP_PROVIDER: 'cloud' needs ${missing.join(', ')}`,
      );
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    uploadDir: path.resolve(e.UPLOAD_DIR ?? path.join(e.DATA_DIR, 'uploads')),
    ...(e.S3_URL ? { s3: e.S3_URL } : {}),
    databaseUrl: e.DATABASE_URL,
    databasePreparedStatements: e.DATABASE_PREPARED_STATEMENTS ?? true,
    mqttUrl: e.MQTT_URL,
    mqttPort: e.MQTT_URL ? null : e.MQTT_PORT,
    mqttShareGroup: e.MQTT_SHARE_GROUP,
    mqttClientId: e.MQTT_CLIENT_ID ?? defaultMqttClientId(e.PORT),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    codeRateLimitPerMinute: e.CODE_RATE_LIMIT,
    // The demo seed is on with the embedded database and off with a server database, unless set.
    demo: e.DEMO ?? !e.DATABASE_URL,
    helpUrl: e.HELP_URL,
    webDist: path.resolve(e.WEB_DIST ?? path.join(repoRoot, 'apps/web/dist')),
    logLevel: e.LOG_LEVEL,
    sessionIdleMs: e.SESSION_IDLE_HOURS * 3_600_000,
    loginRateLimitPerMinute: e.LOGIN_RATE_LIMIT,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    reportAttachMaxBytes: e.REPORT_ATTACH_MAX_BYTES,
    secretKey: e.SECRET_KEY,
    openApiRatePerMinute: e.OPEN_API_RATE_PER_MINUTE,
    push: {
      allowHosts: e.PUSH_ALLOW_HOSTS,
      pollMs: e.PUSH_POLL_MS,
      retryBaseMs: e.PUSH_RETRY_BASE_MS,
      retryMaxMs: Math.max(e.PUSH_RETRY_BASE_MS, 3_600_000),
      timeoutMs: e.PUSH_TIMEOUT_MS,
      leaseMs: Math.max(e.PUSH_LEASE_MS, e.PUSH_TIMEOUT_MS * 2),
      stopAfterMs: e.PUSH_STOP_AFTER_HOURS * 3_600_000,
      pauseFactor: 19,
    },
    deviceLimits: {
      window: {
        maxAheadMs: e.DEVICE_CLOCK_AHEAD_SECONDS * 1000,
        backfillMs: e.DEVICE_BACKFILL_DAYS * 86_400_000,
      },
      messagesPerMinute: e.DEVICE_MESSAGES_PER_MINUTE,
      connectsPerMinute: e.DEVICE_CONNECTS_PER_MINUTE,
      maxPacketBytes: e.MQTT_MAX_PACKET_BYTES,
    },
    contact: { phone: e.CONTACT_PHONE, email: e.CONTACT_EMAIL, address: e.CONTACT_ADDRESS },
    delivery: {
      pollMs: e.DELIVERY_POLL_MS,
      maxAttempts: e.DELIVERY_MAX_ATTEMPTS,
      retryBaseMs: e.DELIVERY_RETRY_BASE_MS,
      retryMaxMs: Math.max(e.DELIVERY_RETRY_BASE_MS, 3_600_000),
      leaseMs: Math.max(e.DELIVERY_LEASE_MS, e.DELIVERY_HTTP_TIMEOUT_MS * 3),
      httpTimeoutMs: e.DELIVERY_HTTP_TIMEOUT_MS,
      dailyCapPerPhone: e.DELIVERY_DAILY_CAP,
      batchSize: 20,
    },
    twilio:
      e.TWILIO_ACCOUNT_SID && e.TWILIO_AUTH_TOKEN
        ? {
            baseUrl: e.TWILIO_BASE_URL,
            accountSid: e.TWILIO_ACCOUNT_SID,
            authToken: e.TWILIO_AUTH_TOKEN,
            from: e.TWILIO_FROM,
            whatsappFrom: e.TWILIO_WHATSAPP_FROM,
          }
        : undefined,
    wechat:
      e.WECHAT_APP_ID && e.WECHAT_APP_SECRET && e.WECHAT_TEMPLATE_ID
        ? {
            baseUrl: e.WECHAT_BASE_URL,
            appId: e.WECHAT_APP_ID,
            appSecret: e.WECHAT_APP_SECRET,
            templateId: e.WECHAT_TEMPLATE_ID,
          }
        : undefined,
    prices: { renewal: e.PRICE_RENEWAL_RM, recovery: e.PRICE_RECOVERY_RM },
    parameterTimeoutMs: e.PARAMETER_TIMEOUT_MS,
    mktActivationEnergyKj: e.MKT_ACTIVATION_ENERGY_KJ,
    starterCredits: e.STARTER_CREDITS,
    operatorAccounts: e.OPERATOR_ACCOUNTS.split(',')
      .map((a) => a.trim())
      .filter((a) => a !== ''),
    mapTileUrl: e.MAP_TILE_URL,
    publicMqttUrl: e.PUBLIC_MQTT_URL,
    trustProxy: e.TRUST_PROXY,
    dashboardFrameAncestors: e.DASHBOARD_FRAME_ANCESTORS,
    metricsToken: e.METRICS_TOKEN,
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ''),
    whatsappProvider: e.WHATSAPP_PROVIDER,
    whatsappCloud:
      e.WHATSAPP_CLOUD_TOKEN && e.WHATSAPP_CLOUD_PHONE_NUMBER_ID && e.WHATSAPP_CLOUD_TEMPLATE
        ? {
            baseUrl: e.WHATSAPP_CLOUD_BASE_URL,
            apiVersion: e.WHATSAPP_CLOUD_API_VERSION,
            token: e.WHATSAPP_CLOUD_TOKEN,
            phoneNumberId: e.WHATSAPP_CLOUD_PHONE_NUMBER_ID,
            template: e.WHATSAPP_CLOUD_TEMPLATE,
            appSecret: e.WHATSAPP_CLOUD_APP_SECRET,
            verifyToken: e.WHATSAPP_CLOUD_VERIFY_TOKEN,
          }
        : undefined,
    wechatAccount:
      e.WECHAT_APP_ID && e.WECHAT_APP_SECRET
        ? {
            baseUrl: e.WECHAT_BASE_URL,
            oauthUrl: e.WECHAT_OAUTH_URL,
            appId: e.WECHAT_APP_ID,
            appSecret: e.WECHAT_APP_SECRET,
          }
        : undefined,
  };
}

/**
 * The machine's name and the HTTP port: what tells instances apart on one machine and stays the
 * same when one restarts (a process id would not, and the restarted instance would leave its
 * predecessor's session, with the messages queued in it, to expire an hour later).
 */
export function defaultMqttClientId(httpPort: number): string {
  const machine =
    hostname()
      .replace(/[^A-Za-z0-9_-]/g, '-')
      .slice(0, 32) || 'host';
  return `coldchain-${machine}-${httpPort}`;
}
