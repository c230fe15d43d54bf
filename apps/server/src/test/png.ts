import { crc32, deflateSync } from 'node:zlib';

/**
 * A real PNG of one colour (8-bit; RGB for three values, RGBA for four), which pdfkit and
 * browsers can draw. `filter` and `interlace` write other header and row bytes, to make the
 * broken files a decoder must refuse.
 */
export function solidPng(
  width: number,
  height: number,
  colour: number[],
  options: { filter?: number; interlace?: number } = {},
): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = colour.length === 4 ? 6 : 2;
  header[12] = options.interlace ?? 0;
  const row = Buffer.from([options.filter ?? 0, ...Array.from({ length: width }, () => colour).flat()]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
