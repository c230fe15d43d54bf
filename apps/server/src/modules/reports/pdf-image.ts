import { inflateSync } from 'node:zlib';

/** Larger images are not printed: decoding them in pure JS would hold the server for seconds. */
const MAX_SIDE = 4096;
const MAX_PIXELS = 16_000_000;
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Whether pdfkit can draw these bytes without failing where no caller can catch it. pdfkit reads
 * a JPEG's markers at once (a bad one throws in `doc.image`, which the writer catches), but
 * decodes a PNG with transparency later, in a zlib callback, where a corrupt stream or a bad
 * row filter would throw past every handler and stop the process. So a PNG is decoded here
 * first, synchronously: chunks, size, the compressed rows and each row's filter byte. Uploads
 * are checked only by their first bytes, and a delivery note prints what a receiver sent.
 */
export function isPrintableImage(bytes: Buffer): boolean {
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return true;
  if (bytes.length < 33 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return false;
  const idat: Buffer[] = [];
  let header: { width: number; height: number; depth: number; color: number; interlace: number } | null =
    null;
  let ended = false;
  for (let pos = 8; pos + 8 <= bytes.length; ) {
    const length = bytes.readUInt32BE(pos);
    const type = bytes.toString('latin1', pos + 4, pos + 8);
    const data = bytes.subarray(pos + 8, pos + 8 + length);
    if (data.length !== length) return false;
    if (type === 'IHDR' && length >= 13) {
      header = {
        width: data.readUInt32BE(0),
        height: data.readUInt32BE(4),
        depth: data[8]!,
        color: data[9]!,
        interlace: data[12]!,
      };
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') {
      ended = true;
      break;
    }
    pos += 12 + length;
  }
  if (!header || !ended || idat.length === 0) return false;
  const { width, height, depth, color, interlace } = header;
  const channels = CHANNELS[color];
  if (!channels || interlace !== 0 || ![1, 2, 4, 8, 16].includes(depth)) return false;
  if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE || width * height > MAX_PIXELS)
    return false;
  const rowBytes = 1 + Math.ceil((width * channels * depth) / 8);
  let rows: Buffer;
  try {
    rows = inflateSync(Buffer.concat(idat), { maxOutputLength: rowBytes * height + 1 });
  } catch {
    return false;
  }
  if (rows.length < rowBytes * height) return false;
  for (let row = 0; row < height; row++) if (rows[row * rowBytes]! > 4) return false;
  return true;
}
