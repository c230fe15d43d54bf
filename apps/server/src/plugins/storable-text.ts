import type { FastifyInstance } from 'fastify';
import { fieldLabel } from '../i18n/messages';
import { AppError } from '../lib/app-error';

/*
 * PostgreSQL text cannot hold a NUL character, and its JSON types cannot hold half of a UTF-16
 * surrogate pair; JSON carries both (`"\u0000"`, `"\ud800"`). Found by the API fuzz (issue 13):
 * such a string in any field (a name, a search keyword, an address) failed the query with
 * HTTP 500. Every `/api` body is checked once here, before its schema, and the first such field
 * is named in the caller's language.
 */

/** A high surrogate not followed by a low one, or a low one not after a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const unstorable = (text: string) => text.includes('\u0000') || LONE_SURROGATE.test(text);

/** The dotted path (`contacts.0.name`) of the first string or key that cannot be stored, if any. */
export function unstorableTextPath(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return unstorable(value) ? path || 'body' : undefined;
  const isPlain =
    value !== null &&
    typeof value === 'object' &&
    (Array.isArray(value) || [Object.prototype, null].includes(Object.getPrototypeOf(value)));
  // Only what JSON.parse builds is walked: a multipart body holds streams and buffers.
  if (!isPlain) return undefined;
  for (const [key, item] of Object.entries(value as object)) {
    const at = path ? `${path}.${key}` : key;
    if (unstorable(key)) return at;
    const found = unstorableTextPath(item, at);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Runs after the login check (registered after `registerAuth`): a stranger still gets 311. */
export function registerStorableText(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    if (!request.routeOptions.url?.startsWith('/api/')) return;
    const path = unstorableTextPath(request.body);
    if (path !== undefined) {
      throw new AppError('validation.unstorableText', { field: fieldLabel(path, request.language) });
    }
  });
}
