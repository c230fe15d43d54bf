import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import {
  FEEDBACK_MAX_IMAGES,
  UPLOAD_MAX_BYTES,
  UPLOAD_PURPOSES,
  type UploadManyResult,
  type UploadPurposeName,
  type UploadResult,
} from '@coldchain/contract';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error';
import { ok } from '../../lib/envelope';
import { contentDisposition } from '../audit/export-file';
import { checkUpload, STORED_NAME_PATTERN, writeUpload } from './file-store';
import { CONTENT_TYPES, type SniffedType } from './file-type';

/** Types a browser shows inline; every other upload is served as a download. */
const IMAGE_TYPES = new Set<SniffedType>(['jpg', 'png', 'gif', 'webp']);

interface ReceivedUpload {
  files: Buffer[];
  fields: Record<string, string>;
}

/** Fields a form may carry next to the files; anything else is ignored. */
const MAX_FIELDS = 5;

/**
 * Reads the whole multipart body: the files (each at most UPLOAD_MAX_BYTES, else HTTP 413) and
 * the text fields, in any order, so that `purpose` may come after `file`.
 */
async function receive(request: FastifyRequest, maxFiles: number): Promise<ReceivedUpload> {
  const received: ReceivedUpload = { files: [], fields: {} };
  if (!request.isMultipart()) throw new AppError('UPLOAD_NO_FILE');
  try {
    for await (const part of request.parts({
      limits: {
        fileSize: UPLOAD_MAX_BYTES,
        files: maxFiles + 1,
        fields: MAX_FIELDS,
        parts: maxFiles + 1 + MAX_FIELDS,
      },
    })) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.fieldname === 'file' || part.fieldname === 'files' || part.fieldname === 'file[]') {
          received.files.push(bytes);
        }
      } else if (typeof part.value === 'string') {
        received.fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('PAYLOAD_TOO_LARGE', {}, 413);
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') {
      throw new AppError('UPLOAD_TOO_MANY', { max: maxFiles });
    }
    throw error;
  }
  if (received.files.length > maxFiles) throw new AppError('UPLOAD_TOO_MANY', { max: maxFiles });
  return received;
}

function purposeOf(fields: Record<string, string>, fallback: UploadPurposeName): UploadPurposeName {
  const value = fields.purpose?.trim();
  if (!value) return fallback;
  if (!(UPLOAD_PURPOSES as string[]).includes(value)) {
    throw new AppError('UPLOAD_PURPOSE_INVALID', { purposes: UPLOAD_PURPOSES.join(', ') });
  }
  return value as UploadPurposeName;
}

/**
 * Uploads (multipart) and the files they return. Files are served without a login because
 * `<img>` cannot send the accessToken header; the 128-bit random name is the access key.
 */
export const fileRoutes: FastifyPluginAsync<{ uploadDir: string }> = async (app, { uploadDir }) => {
  // Registered here, not globally: only these routes accept multipart bodies.
  await app.register(multipart);

  /** One file, field `file`; `purpose` (default feedback) picks the size and type limits. */
  app.post('/api/file/upload', async (request) => {
    const { files, fields } = await receive(request, 1);
    const [file] = files;
    if (!file) throw new AppError('UPLOAD_NO_FILE');
    const purpose = purposeOf(fields, 'feedback');
    const type = checkUpload(purpose, file, request.language);
    return ok<UploadResult>(await writeUpload(uploadDir, file, type));
  });

  /** Spec section 7: feedback images, at most 3 in one request; every one is checked before any is kept. */
  app.post('/api/device/addCalibrationImg', async (request) => {
    const { files, fields } = await receive(request, FEEDBACK_MAX_IMAGES);
    if (files.length === 0) throw new AppError('UPLOAD_NO_FILE');
    const purpose = purposeOf(fields, 'feedback');
    const types = files.map((file) => checkUpload(purpose, file, request.language));
    const urls: string[] = [];
    for (const [i, file] of files.entries()) urls.push((await writeUpload(uploadDir, file, types[i]!)).url);
    return ok<UploadManyResult>({ urls, imgUrl: urls.join(',') });
  });

  app.get<{ Params: { name: string } }>('/files/:name', async (request, reply) => {
    const { name } = request.params;
    if (!STORED_NAME_PATTERN.test(name)) throw new AppError('NOT_FOUND', {}, 404);
    const file = path.join(uploadDir, name);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) throw new AppError('NOT_FOUND', {}, 404);
    const type = path.extname(name).slice(1) as SniffedType;
    // Only images are shown in the browser (<img>, previews). Anything else (a PDF certificate
    // may carry scripts or HTML the viewer would run on our origin) is downloaded, and every file
    // gets a policy that runs nothing and sandboxes whatever still opens it.
    if (!IMAGE_TYPES.has(type)) reply.header('Content-Disposition', contentDisposition(name));
    return reply
      .header('Content-Type', CONTENT_TYPES[type])
      .header('Content-Length', info.size)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', "default-src 'none'; sandbox")
      .header('Cache-Control', 'private, max-age=31536000, immutable')
      .send(createReadStream(file));
  });
};
