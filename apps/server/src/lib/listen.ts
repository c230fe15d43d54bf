import { createServer, type Server } from 'node:net';

/** Raised when a configured port cannot be used; its message names the setting to change. */
export class PortInUseError extends Error {}

/**
 * Listens on `port`; a taken or forbidden port becomes a message naming `setting`, not a stack
 * trace. `backlog`: connections the kernel holds before they are accepted (Node's default 511).
 */
export function listenOrExplain(
  server: Server,
  port: number,
  host: string,
  setting: string,
  backlog?: number,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE' || error.code === 'EACCES') {
        const why = error.code === 'EADDRINUSE' ? 'is already in use' : 'needs privileges this process lacks';
        reject(
          new PortInUseError(
            `Port ${port} (${setting}) ${why}. Set ${setting} to a free port, for example ${setting}=${port + 1}.`,
          ),
        );
      } else reject(error);
    };
    server.once('error', onError);
    server.listen({ port, host, backlog }, () => {
      server.off('error', onError);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

/**
 * Binds and releases each configured port before anything slow starts (the embedded database
 * takes seconds to open), so a taken port is reported at once. Port 0 (any free port) and an
 * absent one are skipped. The real listen later still reports a port taken in between.
 */
export async function assertPortsFree(host: string, ports: [port: number | null, setting: string][]) {
  for (const [port, setting] of ports) {
    if (!port) continue;
    const probe = createServer();
    await listenOrExplain(probe, port, host, setting);
    await new Promise((resolve) => probe.close(resolve));
  }
}
