import { eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../lib/app-error';
import { type Download, sendDownload } from '../audit/export-file';
import type { JobQueue } from '../jobs/job-queue';
import { linkValid, parseLinkToken } from './run-link';

export interface RunLinkOptions {
  /** `<path>/<token>`, outside /api: the link itself is the credential. */
  path: string;
  runs: PgTable & { id: PgColumn; linkKey: PgColumn };
  queue: JobQueue;
  /** The run's stored file. */
  file(runId: number): Promise<Download>;
}

/**
 * The link of a report e-mail too large to attach: no login, the signed token is the right to
 * this one run's file until it expires (run-link.ts). Anything wrong is a plain 404.
 */
export const runLinkRoute: FastifyPluginAsync<RunLinkOptions> = async (app, { path, runs, queue, file }) => {
  app.get<{ Params: { token: string } }>(`${path}/:token`, async (request, reply) => {
    const token = parseLinkToken(request.params.token);
    if (!token) throw new AppError('NOT_FOUND', {}, 404);
    const [run] = (await app.db
      .select({ linkKey: runs.linkKey })
      .from(runs)
      .where(eq(runs.id, token.runId))) as {
      linkKey: string | null;
    }[];
    if (
      !run?.linkKey ||
      !linkValid(run.linkKey, token.runId, token.expires, token.sig, queue.now().getTime())
    )
      throw new AppError('NOT_FOUND', {}, 404);
    return sendDownload(reply, await file(token.runId));
  });
};
