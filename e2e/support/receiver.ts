import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One push the platform delivered: its headers, the raw body (signatures cover it) and the JSON. */
export interface Delivery {
  headers: IncomingHttpHeaders;
  raw: string;
  body: { deliveryId: string; event: string; items: Record<string, unknown>[] };
}

/**
 * A receiving system on this machine (push docking, platform docking): records each delivery
 * and answers 200. `path` is the address's path, so a spec can tell its receiver apart.
 */
export async function startReceiver(path: string) {
  const received: Delivery[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: request.headers, raw, body: JSON.parse(raw) });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}${path}`, received, close: () => server.close() };
}
