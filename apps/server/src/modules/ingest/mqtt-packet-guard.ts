/**
 * Follows the MQTT framing of one connection's bytes (a fixed header byte, the "remaining length"
 * in 1 to 4 bytes, then that many bytes) and says when a packet declares more than `maxBytes` in
 * all. It reads only the headers, so a 20 MB publish is refused on its first bytes, before the
 * MQTT parser has buffered it.
 */
export class PacketSizeGuard {
  private state: 'header' | 'length' | 'body' = 'header';
  private length = 0;
  private lengthBytes = 0;
  /** Bytes of the current packet's body still to skip. */
  private remaining = 0;

  constructor(readonly maxBytes: number) {}

  /** Feeds received bytes; returns the size of a packet over the limit, else null. */
  feed(chunk: Buffer): number | null {
    let i = 0;
    while (i < chunk.length) {
      if (this.state === 'body') {
        const skip = Math.min(this.remaining, chunk.length - i);
        this.remaining -= skip;
        i += skip;
        if (this.remaining === 0) this.state = 'header';
      } else if (this.state === 'header') {
        this.state = 'length';
        this.length = 0;
        this.lengthBytes = 0;
        i++;
      } else {
        const byte = chunk[i++]!;
        this.length += (byte & 0x7f) * 128 ** this.lengthBytes;
        this.lengthBytes++;
        // A malformed length (a fifth byte) is the MQTT parser's to refuse.
        if (byte & 0x80 && this.lengthBytes < 4) continue;
        const size = 1 + this.lengthBytes + this.length;
        if (size > this.maxBytes) return size;
        this.remaining = this.length;
        this.state = this.length > 0 ? 'body' : 'header';
      }
    }
    return null;
  }
}
