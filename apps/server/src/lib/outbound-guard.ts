import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses a request the platform makes on a customer's behalf (push docking, platform docking,
 * camera platforms) must not reach: this host, the private network behind it, link-local
 * (cloud metadata services at 169.254.169.254), carrier-grade NAT, multicast and reserved ranges.
 * A customer who types such an address could otherwise read or poke what only the server sees.
 */
const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  // NAT64 and 6to4 prefixes embed IPv4 addresses that may be private.
  ['64:ff9b::', 96],
  ['2002::', 16],
] as const)
  BLOCKED.addSubnet(network, prefix, 'ipv6');

/** Why an address was refused; the caller turns it into its own user-facing message. */
export class OutboundRefused extends Error {}

/** An IPv4 address written inside IPv6 (`::ffff:127.0.0.1`) is judged as the IPv4 address. */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1]!, family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

export interface ResolvedTarget {
  url: URL;
  /** The address the connection will be made to, checked; DNS is not asked again. */
  address: string;
  family: 4 | 6;
}

/**
 * Checks outbound addresses against the blocked ranges, except what the operator allows
 * (`PUSH_ALLOW_HOSTS`: comma-separated host names, addresses or CIDRs; for a receiver on the same
 * machine or network, and for tests). Every resolved address of a name must pass, and the
 * connection is then made to the checked address, so a name that resolves elsewhere a moment
 * later (DNS rebinding) cannot slip through.
 */
export class OutboundGuard {
  private readonly allowedHosts = new Set<string>();
  private readonly allowedRanges = new BlockList();

  constructor(allow = '') {
    for (const entry of allow
      .split(',')
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean)) {
      const [address = '', prefix] = entry.split('/');
      const family = isIP(address);
      if (family === 0) this.allowedHosts.add(entry.replace(/^\[|\]$/g, ''));
      else if (prefix === undefined) this.allowedRanges.addAddress(address, family === 4 ? 'ipv4' : 'ipv6');
      else this.allowedRanges.addSubnet(address, Number(prefix), family === 4 ? 'ipv4' : 'ipv6');
    }
  }

  private allowed(address: string): boolean {
    const { address: a, family } = unmapped(address);
    if (this.allowedRanges.check(a, family)) return true;
    return !BLOCKED.check(a, family);
  }

  /** The URL's checked target, or OutboundRefused saying why not. */
  async resolve(raw: string): Promise<ResolvedTarget> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new OutboundRefused('not a URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new OutboundRefused('only http and https');
    if (url.username || url.password) throw new OutboundRefused('credentials in the URL');
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    const literal = isIP(host);
    const addresses = literal
      ? [{ address: host, family: literal }]
      : await lookup(host, { all: true, verbatim: true }).catch(() => {
          throw new OutboundRefused('the name does not resolve');
        });
    if (addresses.length === 0) throw new OutboundRefused('the name does not resolve');
    if (!this.allowedHosts.has(host)) {
      const refused = addresses.find((a) => !this.allowed(a.address));
      if (refused) throw new OutboundRefused(`${refused.address} is a loopback, private or reserved address`);
    }
    const first = addresses[0]!;
    return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
  }
}

export interface OutboundAnswer {
  status: number;
  /** At most `maxResponseBytes` of the body, as text. */
  body: string;
  durationMs: number;
}

/**
 * POSTs `body` to a checked target: connected to the checked address (TLS still verifies the
 * host name), no redirect followed (a 3xx is just an answer), the answer's body read up to
 * `maxResponseBytes` and the rest dropped, the whole exchange bounded by `timeoutMs`.
 */
export function postChecked(
  target: ResolvedTarget,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; maxResponseBytes: number },
): Promise<OutboundAnswer> {
  const started = performance.now();
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      target.url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...headers,
        },
        // The connection goes to the address that was checked, whatever DNS says now.
        lookup: (_host, lookupOptions, done) => {
          // Node asks for every address when it may race IPv4 and IPv6 (autoSelectFamily).
          if ((lookupOptions as { all?: boolean }).all)
            (done as unknown as (err: null, all: { address: string; family: number }[]) => void)(null, [
              { address: target.address, family: target.family },
            ]);
          else done(null, target.address, target.family);
        },
        timeout: options.timeoutMs,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = () =>
          resolve({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            durationMs: Math.round(performance.now() - started),
          });
        response.on('data', (chunk: Buffer) => {
          if (size >= options.maxResponseBytes) return;
          const room = options.maxResponseBytes - size;
          chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
          size += Math.min(chunk.length, room);
          if (size >= options.maxResponseBytes) {
            finish();
            response.destroy();
          }
        });
        response.on('end', finish);
        response.on('error', (err) => reject(err));
      },
    );
    const deadline = setTimeout(
      () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    request.on('close', () => clearTimeout(deadline));
    request.on('timeout', () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    request.on('error', reject);
    request.end(body);
  });
}
