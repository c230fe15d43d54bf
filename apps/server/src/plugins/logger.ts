import type { FastifyServerOptions } from 'fastify';

/**
 * Structured JSON logs (pino). Fastify logs method, url and status, never bodies; the redaction
 * below also keeps tokens, passwords and cookies out if a header or object ever gets logged.
 */
export const REDACTED_PATHS = [
  'req.headers.accesstoken',
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.accessToken',
  '*.token',
  '*.deviceKey',
];

export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
}
