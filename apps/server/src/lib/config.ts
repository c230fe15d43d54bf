import path from 'node:path';
import { z } from 'zod';

/**
 * The environment of API.md "Configuration", read and checked once at start. A bad value stops
 * the server with a message that names the variable, never a stack trace.
 */
const flag = z
  .enum(['1', '0', 'true', 'false', 'on', 'off', 'yes', 'no'])
  .transform((v) => ['1', 'true', 'on', 'yes'].includes(v));

const port = z.coerce.number().int().min(0).max(65535);

const EnvSchema = z.object({
  PORT: port.default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  MQTT_URL: z.string().url().optional(),
  MQTT_PORT: port.default(1883),
  MQTT_SHARE_GROUP: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .default('coldchain'),
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
  CONTACT_PHONE: z.string().default(''),
  CONTACT_EMAIL: z.string().default('support@example.com'),
  CONTACT_ADDRESS: z.string().default(''),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  mqttUrl?: string;
  /** 0 picks a free port (tests); null turns the embedded broker off. */
  mqttPort: number | null;
  /** Shared-subscription group on the external broker. */
  mqttShareGroup: string;
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
  contact: { phone: string; email: string; address: string };
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
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    mqttUrl: e.MQTT_URL,
    mqttPort: e.MQTT_URL ? null : e.MQTT_PORT,
    mqttShareGroup: e.MQTT_SHARE_GROUP,
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
    contact: { phone: e.CONTACT_PHONE, email: e.CONTACT_EMAIL, address: e.CONTACT_ADDRESS },
  };
}
