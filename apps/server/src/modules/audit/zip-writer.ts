import { once } from 'node:events';
import zlib from 'node:zlib';

/**
 * The smallest zip writer an xlsx needs (APPNOTE 6.3.x, no zip64: an export is refused long
 * before 4 GB, see devices/device-export.ts EXPORT_MAX_ROWS). Each entry is deflated as it is
 * written and kept compressed in memory; the local header is written after its data is known,
 * so no data descriptors are needed and any zip reader accepts the file.
 */
export class ZipWriter {
  private readonly parts: Buffer[] = [];
  private readonly central: Buffer[] = [];
  private offset = 0;

  /** A whole entry from a string or buffer. */
  async addFile(name: string, content: string | Buffer): Promise<void> {
    const entry = this.openEntry(name);
    await entry.write(content);
    await entry.close();
  }

  /**
   * An entry written in pieces (a worksheet of 300 000 rows): the text is deflated as it comes,
   * so only the compressed bytes stay in memory.
   */
  openEntry(name: string): ZipEntry {
    return new ZipEntry((entry) => this.finish(name, entry));
  }

  private finish(name: string, entry: { crc: number; size: number; compressed: Buffer[] }): void {
    const fileName = Buffer.from(name, 'utf8');
    const compressedSize = entry.compressed.reduce((n, b) => n + b.length, 0);
    const { time, date } = dosDateTime(new Date());
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    local.writeUInt16LE(0x0800, 6); // bit 11: the name is UTF-8
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(entry.crc >>> 0, 14);
    local.writeUInt32LE(compressedSize, 18);
    local.writeUInt32LE(entry.size, 22);
    local.writeUInt16LE(fileName.length, 26);
    local.writeUInt16LE(0, 28);

    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4); // made by: 2.0
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(0x0800, 8);
    header.writeUInt16LE(8, 10);
    header.writeUInt16LE(time, 12);
    header.writeUInt16LE(date, 14);
    header.writeUInt32LE(entry.crc >>> 0, 16);
    header.writeUInt32LE(compressedSize, 20);
    header.writeUInt32LE(entry.size, 24);
    header.writeUInt16LE(fileName.length, 28);
    // extra, comment, disk, internal and external attributes: all 0
    header.writeUInt32LE(this.offset, 42);
    this.central.push(header, fileName);

    this.parts.push(local, fileName, ...entry.compressed);
    this.offset += local.length + fileName.length + compressedSize;
  }

  /** The whole archive. */
  toBuffer(): Buffer {
    const directory = Buffer.concat(this.central);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    const entries = this.central.length / 2;
    end.writeUInt16LE(entries, 8);
    end.writeUInt16LE(entries, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(this.offset, 16);
    return Buffer.concat([...this.parts, directory, end]);
  }
}

/** One entry being written; `close` must be awaited before the next entry is finished. */
export class ZipEntry {
  private crc = 0;
  private size = 0;
  private readonly compressed: Buffer[] = [];
  // Level 1: a worksheet is repetitive XML, level 1 keeps it within ~15 % of level 6's size
  // at a third of the time (docs/benchmarks.md, "Reports and exports").
  private readonly deflate = zlib.createDeflateRaw({ level: 1 });

  constructor(
    private readonly onClose: (entry: { crc: number; size: number; compressed: Buffer[] }) => void,
  ) {
    this.deflate.on('data', (chunk: Buffer) => this.compressed.push(chunk));
  }

  /** Resolves once the deflater can take more, so a long sheet never piles up in memory. */
  async write(content: string | Buffer): Promise<void> {
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    this.crc = crc32(bytes, this.crc);
    this.size += bytes.length;
    if (!this.deflate.write(bytes)) await once(this.deflate, 'drain');
  }

  async close(): Promise<void> {
    const ended = once(this.deflate, 'end');
    this.deflate.end();
    await ended;
    this.onClose({ crc: this.crc, size: this.size, compressed: this.compressed });
  }
}

/** zlib's own CRC-32 where Node has it (20.15 and later), a table otherwise. */
const crc32: (data: Buffer, previous: number) => number =
  typeof (zlib as { crc32?: unknown }).crc32 === 'function'
    ? (data, previous) =>
        (zlib as unknown as { crc32: (d: Buffer, p: number) => number }).crc32(data, previous)
    : tableCrc32;

let table: Int32Array | null = null;
function tableCrc32(data: Buffer, previous: number): number {
  if (!table) {
    table = new Int32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c;
    }
  }
  let crc = ~previous;
  for (let i = 0; i < data.length; i++) crc = table[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  return ~crc >>> 0;
}

/** MS-DOS time and date fields (local time of the server, 2-second resolution), as zip keeps them. */
function dosDateTime(at: Date): { time: number; date: number } {
  return {
    time: (at.getHours() << 11) | (at.getMinutes() << 5) | Math.floor(at.getSeconds() / 2),
    date: ((at.getFullYear() - 1980) << 9) | ((at.getMonth() + 1) << 5) | at.getDate(),
  };
}

/** Exported for the test that compares it with zlib's. */
export const tableCrc32ForTest = tableCrc32;
