import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PushDeliveryBody } from '@coldchain/contract';

/**
 * The receivers of the tests listen on 127.0.0.2, which tests allow through PUSH_ALLOW_HOSTS, so
 * 127.0.0.1, `localhost` and the other blocked addresses stay refused in the same run.
 */
export const RECEIVER_HOST = '127.0.0.2';

export interface Received {
  headers: IncomingHttpHeaders;
  raw: string;
  body: PushDeliveryBody;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Status of the next answers (then 200): `[500, 500]` fails twice. */
  failNext(statuses: number[]): void;
  close(): Promise<void>;
}

/** A local HTTP receiver of deliveries, as an integrator would run one. */
export async function startReceiver(host = RECEIVER_HOST, path = '/hook'): Promise<Receiver> {
  const received: Received[] = [];
  let planned: number[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const status = planned.shift() ?? 200;
      if (status < 300) received.push({ headers: request.headers, raw, body: JSON.parse(raw) });
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'busy');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}${path}`,
    received,
    failNext: (statuses) => {
      planned = [...statuses];
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** What the receiver computes to check X-Signature (API.md "Push docking"). */
export function expectedSignature(secret: string, raw: string) {
  return `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
}
