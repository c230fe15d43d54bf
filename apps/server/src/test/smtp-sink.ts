import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
  /** The decoded text body (quoted-printable or base64 undone); the text/plain part of a multipart mail. */
  text: string;
  /** The decoded text/html part, when the mail has one. */
  html?: string;
}

/** The text and HTML of a mail: its single part, or the parts of a multipart one. */
function bodies(raw: string): { text: string; html?: string } {
  const split = raw.indexOf('\r\n\r\n');
  const headers = raw.slice(0, split).replace(/\r\n\s+/g, ' ');
  const boundary = /content-type:\s*multipart\/[^;]+;.*boundary="?([^";\r\n]+)"?/i.exec(headers)?.[1];
  if (!boundary) return { text: bodyText(raw) };
  const parts = raw.split(`--${boundary}`).slice(1, -1);
  const found: { text: string; html?: string } = { text: '' };
  for (const part of parts) {
    const content = part.replace(/^\r\n/, '');
    const partHeaders = content.slice(0, content.indexOf('\r\n\r\n'));
    const decoded = bodyText(content).replace(/\r\n$/, '');
    if (/content-type:\s*text\/html/i.test(partHeaders)) found.html = decoded;
    else if (/content-type:\s*text\/plain/i.test(partHeaders)) found.text = decoded;
  }
  return found;
}

/** Undoes the body's Content-Transfer-Encoding of a single-part text mail (or one part). */
function bodyText(raw: string): string {
  const split = raw.indexOf('\r\n\r\n');
  const headers = raw.slice(0, split);
  const body = raw.slice(split + 4);
  if (/content-transfer-encoding:\s*base64/i.test(headers))
    return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/content-transfer-encoding:\s*quoted-printable/i.test(headers)) {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => `%${hex}`);
    return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'));
  }
  return body;
}

/** A real SMTP server on a free local port that hands out what it receives, in order, for tests. */
export async function startSmtpSink(options: { port?: number } = {}) {
  const queue: ReceivedMail[] = [];
  /** Every mail received, taken or not. */
  const received: ReceivedMail[] = [];
  const observers: ((mail: ReceivedMail) => void)[] = [];
  const waiting: ((mail: ReceivedMail) => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      stream.on('end', () => {
        const mail = { to: session.envelope.rcptTo.map((r) => r.address), raw, ...bodies(raw) };
        received.push(mail);
        for (const observer of observers) observer(mail);
        const taker = waiting.shift();
        if (taker) taker(mail);
        else queue.push(mail);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** Calls `observer` with every mail from now on. */
    onMail: (observer: (mail: ReceivedMail) => void) => observers.push(observer),
    /** The oldest mail not yet taken, waiting for one if none has arrived. */
    nextMail: () =>
      new Promise<ReceivedMail>((resolve) => {
        const ready = queue.shift();
        if (ready) resolve(ready);
        else waiting.push(resolve);
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
