import { UPLOAD_MAX_BYTES, UPLOAD_PURPOSES, type UploadPurposeName } from '@coldchain/contract';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error';

export interface ReceivedUpload {
  files: Buffer[];
  fields: Record<string, string>;
}

/** Fields a form may carry next to the files; anything else is ignored. */
const MAX_FIELDS = 5;

/**
 * Reads the whole multipart body: the files (each at most UPLOAD_MAX_BYTES, else HTTP 413) and
 * the text fields, in any order, so that `purpose` may come after `file`. The route's plugin
 * scope must have registered @fastify/multipart.
 */
export async function receiveMultipart(request: FastifyRequest, maxFiles: number): Promise<ReceivedUpload> {
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

/** The form's `purpose` field, which picks the size and type limits; `fallback` when absent. */
export function purposeOf(fields: Record<string, string>, fallback: UploadPurposeName): UploadPurposeName {
  const value = fields.purpose?.trim();
  if (!value) return fallback;
  if (!(UPLOAD_PURPOSES as string[]).includes(value)) {
    throw new AppError('UPLOAD_PURPOSE_INVALID', { purposes: UPLOAD_PURPOSES.join(', ') });
  }
  return value as UploadPurposeName;
}
