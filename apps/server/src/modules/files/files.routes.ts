import path from 'node:path';
import { FEEDBACK_MAX_IMAGES, type UploadManyResult, type UploadResult } from '@coldchain/contract';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../lib/app-error';
import { ok } from '../../lib/envelope';
import { contentDisposition } from '../audit/export-file';
import { checkUpload, STORED_NAME_PATTERN, writeUpload } from './file-store';
import { CONTENT_TYPES, type SniffedType } from './file-type';
import { purposeOf, receiveMultipart } from './multipart-body';
import type { FileStore } from './store/store';

/** Types a browser shows inline; every other upload is served as a download. */
const IMAGE_TYPES = new Set<SniffedType>(['jpg', 'png', 'gif', 'webp']);

/**
 * Uploads (multipart) and the files they return. Files are served without a login because
 * `<img>` cannot send the accessToken header; the 128-bit random name is the access key.
 */
export const fileRoutes: FastifyPluginAsync<{ files: FileStore }> = async (app, { files: store }) => {
  // Registered here, not globally: only these routes accept multipart bodies.
  await app.register(multipart);

  /** One file, field `file`; `purpose` (default feedback) picks the size and type limits. */
  app.post('/api/file/upload', async (request) => {
    const { files, fields } = await receiveMultipart(request, 1);
    const [file] = files;
    if (!file) throw new AppError('UPLOAD_NO_FILE');
    const purpose = purposeOf(fields, 'feedback');
    const type = checkUpload(purpose, file, request.language);
    return ok<UploadResult>(await writeUpload(store, file, type));
  });

  /** Spec section 7: feedback images, at most 3 in one request; every one is checked before any is kept. */
  app.post('/api/device/addCalibrationImg', async (request) => {
    const { files, fields } = await receiveMultipart(request, FEEDBACK_MAX_IMAGES);
    if (files.length === 0) throw new AppError('UPLOAD_NO_FILE');
    const purpose = purposeOf(fields, 'feedback');
    const types = files.map((file) => checkUpload(purpose, file, request.language));
    const urls: string[] = [];
    for (const [i, file] of files.entries()) urls.push((await writeUpload(store, file, types[i]!)).url);
    return ok<UploadManyResult>({ urls, imgUrl: urls.join(',') });
  });

  app.get<{ Params: { name: string } }>('/files/:name', async (request, reply) => {
    const { name } = request.params;
    if (!STORED_NAME_PATTERN.test(name)) throw new AppError('NOT_FOUND', {}, 404);
    // Streamed from the store (a directory or the S3 bucket), never read whole into memory.
    const file = await store.get(name);
    if (!file) throw new AppError('NOT_FOUND', {}, 404);
    const type = path.extname(name).slice(1) as SniffedType;
    // Only images are shown in the browser (<img>, previews). Anything else (a PDF certificate
    // may carry scripts or HTML the viewer would run on our origin) is downloaded, and every file
    // gets a policy that runs nothing and sandboxes whatever still opens it.
    if (!IMAGE_TYPES.has(type)) reply.header('Content-Disposition', contentDisposition(name));
    return reply
      .header('Content-Type', CONTENT_TYPES[type])
      .header('Content-Length', file.size)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', "default-src 'none'; sandbox")
      .header('Cache-Control', 'private, max-age=31536000, immutable')
      .send(file.body);
  });
};
