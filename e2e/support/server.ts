import { inject } from 'vitest';
import type { E2eServer } from './global-setup';

/**
 * The server this spec file's worker owns (support/global-setup.ts starts one per worker), so
 * files running side by side never see each other's writes.
 */
export function currentServer(): E2eServer {
  const servers = inject('servers');
  // Vitest numbers its workers 1..maxWorkers.
  const id = Number(process.env.VITEST_POOL_ID ?? '1');
  const server = servers[(id - 1) % servers.length];
  if (!server) throw new Error('no e2e server: support/global-setup.ts starts one per worker');
  return server;
}
