import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config';
import { useTestApp } from '../../test/build-app';
import { buildCompany, login } from '../../test/factories';

const uploadDir = mkdtempSync(path.join(tmpdir(), 'cc-uploads-'));
afterAll(() => rmSync(uploadDir, { recursive: true, force: true }));

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const JPG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46]);
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1');
const PDF = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1');

function padTo(head: Buffer, size: number): Buffer {
  return Buffer.concat([head, Buffer.alloc(Math.max(0, size - head.length), 0x20)]);
}

/** The union of what the two upload calls answer. */
interface UploadData {
  url: string;
  size: number;
  type: string;
  urls: string[];
  imgUrl: string;
}

interface Part {
  name: string;
  value: string | Buffer;
  filename?: string;
}

/** Sends a multipart form the way a browser's FormData does. */
async function upload(
  app: FastifyInstance,
  url: string,
  parts: Part[],
  options: { token?: string; language?: 'en' | 'cn' } = {},
) {
  const boundary = '----cc-test-boundary';
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = part.filename
      ? `form-data; name="${part.name}"; filename="${part.filename}"`
      : `form-data; name="${part.name}"`;
    const type = part.filename ? 'Content-Type: application/octet-stream\r\n' : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`));
    chunks.push(typeof part.value === 'string' ? Buffer.from(part.value) : part.value);
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const headers: Record<string, string> = { 'content-type': `multipart/form-data; boundary=${boundary}` };
  if (options.token) headers.accessToken = options.token;
  if (options.language) headers.language = options.language;
  const response = await app.inject({ method: 'POST', url, headers, payload: Buffer.concat(chunks) });
  return {
    status: response.statusCode,
    body: response.json() as { msgCode: number; msgContent: string; data: UploadData },
  };
}

const file = (value: Buffer, filename = 'photo.png'): Part => ({ name: 'file', value, filename });
const purpose = (value: string): Part => ({ name: 'purpose', value });

describe('file upload', () => {
  const ctx = useTestApp({ uploadDir });

  async function token() {
    const company = await buildCompany(ctx.app.db);
    return login(ctx.app, company.admin.account);
  }

  it('stores a profile picture under a random name and serves it back with its real type', async () => {
    const t = await token();
    const { status, body } = await upload(ctx.app, '/api/file/upload', [purpose('avatar'), file(PNG)], {
      token: t,
    });
    expect(status).toBe(200);
    expect(body.msgCode).toBe(200);
    expect(body.data).toMatchObject({ size: PNG.length, type: 'png' });
    expect(body.data.url).toMatch(/^\/files\/[a-f0-9]{32}\.png$/);
    expect(readdirSync(uploadDir)).toContain(body.data.url.slice('/files/'.length));

    const served = await ctx.app.inject({ method: 'GET', url: body.data.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.equals(PNG)).toBe(true);
  });

  it('serves a PDF with HTML inside as a sandboxed download, never as a page of ours', async () => {
    const t = await token();
    const hostile = Buffer.from('%PDF-1.4\n<html><script>alert(document.cookie)</script></html>\n', 'latin1');
    const { body } = await upload(
      ctx.app,
      '/api/file/upload',
      [purpose('calibration'), file(hostile, 'c.pdf')],
      {
        token: t,
      },
    );
    expect(body.msgCode).toBe(200);
    const served = await ctx.app.inject({ method: 'GET', url: body.data.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('application/pdf');
    expect(served.headers['content-disposition']).toMatch(/^attachment; filename="[a-f0-9]{32}\.pdf"/);
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toBe("default-src 'none'; sandbox");

    // Images stay inline (<img> and previews show them), under the same policy.
    const image = await upload(ctx.app, '/api/file/upload', [purpose('avatar'), file(PNG)], { token: t });
    const shown = await ctx.app.inject({ method: 'GET', url: image.body.data.url });
    expect(shown.headers['content-disposition']).toBeUndefined();
    expect(shown.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
  });

  it('reads the purpose even when it comes after the file', async () => {
    const t = await token();
    const { body } = await upload(
      ctx.app,
      '/api/file/upload',
      [file(PDF, 'cert.pdf'), purpose('calibration')],
      {
        token: t,
      },
    );
    expect(body.data.url).toMatch(/\.pdf$/);
  });

  it.each([
    ['avatar', padTo(PNG, 1_048_576 + 1), 'en', 'The file is too large: at most 1 MB for profile pictures'],
    ['department', padTo(JPG, 3 * 1_048_576 + 1), 'cn', '文件过大：部门图片最大 3 MB'],
    [
      'calibration',
      padTo(PDF, 5 * 1_048_576 - 1 + 1),
      'en',
      'The file is too large: at most 5 MB for calibration certificates',
    ],
    ['department', GIF, 'en', 'Unsupported file type: department images accepts JPG, PNG'],
    ['calibration', PNG, 'cn', '文件类型不支持：校准证书仅支持 PDF'],
    // An HTML page named .png is refused by its bytes, whatever the name says.
    [
      'avatar',
      Buffer.from('<html><script>alert(1)</script></html>'),
      'en',
      'Unsupported file type: profile pictures accepts JPG, PNG, GIF, WEBP',
    ],
    [
      'portrait',
      PNG,
      'en',
      'Purpose is invalid: use one of avatar, department, feedback, invoice, attachment, calibration',
    ],
  ] as const)('refuses a %s file that breaks its rule (%#)', async (kind, bytes, language, message) => {
    const t = await token();
    const before = readdirSync(uploadDir).length;
    const { status, body } = await upload(ctx.app, '/api/file/upload', [purpose(kind), file(bytes)], {
      token: t,
      language,
    });
    expect(status).toBe(200);
    expect(body).toEqual({ msgCode: 500, msgContent: message, data: null });
    expect(readdirSync(uploadDir).length).toBe(before);
  });

  it('accepts a calibration PDF just under 5 MB', async () => {
    const t = await token();
    const { body } = await upload(
      ctx.app,
      '/api/file/upload',
      [purpose('calibration'), file(padTo(PDF, 5 * 1_048_576 - 1))],
      {
        token: t,
      },
    );
    expect(body.msgCode).toBe(200);
  });

  it('answers HTTP 413 above the largest size any purpose accepts', async () => {
    const t = await token();
    const { status, body } = await upload(
      ctx.app,
      '/api/file/upload',
      [purpose('calibration'), file(padTo(PDF, 10 * 1_048_576 + 1))],
      {
        token: t,
      },
    );
    expect(status).toBe(413);
    expect(body).toEqual({ msgCode: 413, msgContent: 'The request body is too large', data: null });
  });

  it('asks for a file when none is sent, or the body is JSON', async () => {
    const t = await token();
    const { body } = await upload(ctx.app, '/api/file/upload', [purpose('avatar')], {
      token: t,
      language: 'cn',
    });
    expect(body).toEqual({ msgCode: 500, msgContent: '请选择要上传的文件', data: null });
    const json = await ctx.app.inject({
      method: 'POST',
      url: '/api/file/upload',
      headers: { 'content-type': 'application/json', accessToken: t },
      payload: '{}',
    });
    expect(json.json()).toEqual({ msgCode: 500, msgContent: 'Choose a file to upload', data: null });
  });

  it('needs a login', async () => {
    const { body } = await upload(ctx.app, '/api/file/upload', [file(PNG)]);
    expect(body.msgCode).toBe(311);
  });

  it('serves nothing for unknown or malformed names', async () => {
    for (const url of [
      '/files/0123456789abcdef0123456789abcdef.png',
      '/files/..%2F..%2Fetc%2Fpasswd',
      '/files/x.html',
    ]) {
      const response = await ctx.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
    }
  });
});

describe('feedback images (/api/device/addCalibrationImg)', () => {
  const ctx = useTestApp({ uploadDir });

  it('stores up to 3 images and returns them one by one and comma-joined', async () => {
    const company = await buildCompany(ctx.app.db);
    const t = await login(ctx.app, company.admin.account);
    const { body } = await upload(
      ctx.app,
      '/api/device/addCalibrationImg',
      [file(PNG), file(JPG, 'a.jpg'), file(GIF, 'b.gif')],
      {
        token: t,
      },
    );
    expect(body.msgCode).toBe(200);
    expect(body.data.urls).toHaveLength(3);
    expect(body.data.imgUrl).toBe(body.data.urls.join(','));
  });

  it('refuses a fourth image, and keeps none when one of them is not an image', async () => {
    const company = await buildCompany(ctx.app.db);
    const t = await login(ctx.app, company.admin.account);
    const four = await upload(
      ctx.app,
      '/api/device/addCalibrationImg',
      [file(PNG), file(PNG), file(PNG), file(PNG)],
      {
        token: t,
      },
    );
    expect(four.body).toEqual({
      msgCode: 500,
      msgContent: 'At most 3 files can be uploaded at once',
      data: null,
    });
    const before = readdirSync(uploadDir).length;
    const mixed = await upload(ctx.app, '/api/device/addCalibrationImg', [file(PNG), file(PDF, 'x.pdf')], {
      token: t,
    });
    expect(mixed.body.msgContent).toBe('Unsupported file type: feedback images accepts JPG, PNG, GIF, WEBP');
    expect(readdirSync(uploadDir).length).toBe(before);
  });
});

describe('upload directory configuration', () => {
  it('defaults to DATA_DIR/uploads and follows UPLOAD_DIR', () => {
    expect(loadConfig({ DATA_DIR: '/srv/cc' }).uploadDir).toBe(path.resolve('/srv/cc/uploads'));
    expect(loadConfig({ DATA_DIR: '/srv/cc', UPLOAD_DIR: '/mnt/files' }).uploadDir).toBe('/mnt/files');
  });
});
