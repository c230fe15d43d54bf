import type { FastifyInstance } from 'fastify';
import { extractText, getDocumentProxy } from 'unpdf';

/** A logged-in caller of the report and export tests. */
export interface Caller {
  token: string;
  companyId: number;
}

/**
 * POSTs a call that answers a file (a report, an export) as the console does, and returns the
 * file with its headers, or the envelope of a refusal.
 */
export async function postForFile(
  app: FastifyInstance,
  as: Caller,
  url: string,
  body: object,
  language = 'en',
) {
  const res = await app.inject({
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/json',
      platform: '1',
      language,
      accessToken: as.token,
      companyId: String(as.companyId),
    },
    payload: JSON.stringify(body),
  });
  const type = String(res.headers['content-type']);
  const isFile = !type.startsWith('application/json');
  return {
    type,
    disposition: String(res.headers['content-disposition']),
    /** The printed fingerprint of a PDF (`X-Report-Sha256`); empty for other files. */
    fingerprint: String(res.headers['x-report-sha256'] ?? ''),
    bytes: res.rawPayload,
    /** The PDF, when the answer is one. */
    pdf: type.startsWith('application/pdf') ? res.rawPayload : null,
    /** The refusal, when the answer is an envelope. */
    envelope: isFile ? null : (res.json() as { msgCode: number; msgContent: string }),
  };
}

/** A PDF's text with its layout's line breaks folded to spaces: the checks are about the words. */
export async function pdfText(bytes: Buffer): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  return text.replace(/\s+/g, ' ');
}
