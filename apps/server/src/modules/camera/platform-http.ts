import http from 'node:http';
import https from 'node:https';
import { type OutboundGuard, OutboundRefused } from '../../lib/outbound-guard';

/** Why a platform call failed, in words for the person who configured the account. */
export class PlatformError extends Error {
  constructor(
    message: string,
    /** The platform's own code when it answered one (EZVIZ `10002`, ...). */
    readonly platformCode = '',
  ) {
    super(message);
  }
}

export interface PlatformAnswer {
  status: number;
  contentType: string;
  body: Buffer;
}

export interface PlatformRequest {
  method: 'GET' | 'POST';
  url: string;
  form?: Record<string, string>;
  timeoutMs: number;
  maxBytes: number;
}

/**
 * Calls a video platform through the SSRF guard (lib/outbound-guard.ts): the address is checked
 * and the connection pinned to the checked address, no redirect is followed, the answer is cut at
 * `maxBytes` and the whole exchange bounded by `timeoutMs`. Bytes, not text: pictures come back too.
 */
export async function callPlatform(guard: OutboundGuard, request: PlatformRequest): Promise<PlatformAnswer> {
  let target: Awaited<ReturnType<OutboundGuard['resolve']>>;
  try {
    target = await guard.resolve(request.url);
  } catch (error) {
    if (error instanceof OutboundRefused) throw new PlatformError(`address refused: ${error.message}`);
    throw error;
  }
  const body = request.form ? new URLSearchParams(request.form).toString() : '';
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const outgoing = client.request(
      target.url,
      {
        method: request.method,
        headers: request.form
          ? { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) }
          : {},
        lookup: (_host, options, done) => {
          if ((options as { all?: boolean }).all)
            (done as unknown as (err: null, all: { address: string; family: number }[]) => void)(null, [
              { address: target.address, family: target.family },
            ]);
          else done(null, target.address, target.family);
        },
        timeout: request.timeoutMs,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > request.maxBytes) {
            response.destroy();
            reject(new PlatformError(`the answer is larger than ${request.maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            contentType: String(response.headers['content-type'] ?? ''),
            body: Buffer.concat(chunks),
          }),
        );
        response.on('error', reject);
      },
    );
    const fail = () => outgoing.destroy(new PlatformError(`no answer within ${request.timeoutMs} ms`));
    const deadline = setTimeout(fail, request.timeoutMs);
    outgoing.on('close', () => clearTimeout(deadline));
    outgoing.on('timeout', fail);
    outgoing.on('error', (error) =>
      reject(error instanceof PlatformError ? error : new PlatformError(`unreachable: ${error.message}`)),
    );
    outgoing.end(body);
  });
}
