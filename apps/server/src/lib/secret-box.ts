import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Version prefix of a sealed value, so that the scheme can change without guessing. */
const PREFIX = 'v1:';

/**
 * Encrypts secrets the server must read back in clear (an open-API key's secret signs requests
 * with HMAC, so it cannot be stored as a one-way hash): AES-256-GCM with a random 96-bit nonce per
 * value, the key derived from `SECRET_KEY` (or the data folder's key file) with SHA-256. A sealed
 * value is `v1:<nonce>.<tag>.<ciphertext>` in base64url; a changed byte fails to open.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHash('sha256').update(`coldchain-secret-box:${secret}`).digest();
  }

  seal(plain: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const parts = [nonce, cipher.getAuthTag(), body].map((b) => b.toString('base64url'));
    return `${PREFIX}${parts.join('.')}`;
  }

  open(sealed: string): string {
    if (!sealed.startsWith(PREFIX)) throw new Error('not a sealed value');
    const [nonce, tag, body] = sealed
      .slice(PREFIX.length)
      .split('.')
      .map((p) => Buffer.from(p, 'base64url'));
    if (!nonce || !tag || !body) throw new Error('not a sealed value');
    const decipher = createDecipheriv('aes-256-gcm', this.key, nonce);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  }
}

/**
 * The box of this installation: `SECRET_KEY` when set, else the key file in the data folder,
 * made (random, mode 0600) at the first start, so a newcomer's `npm start` needs no setting and a
 * restart reads its secrets back.
 */
export function secretBoxFor(config: { secretKey?: string; dataDir: string }): SecretBox {
  if (config.secretKey) return new SecretBox(config.secretKey);
  const file = path.join(config.dataDir, 'secret.key');
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
  }
  return new SecretBox(readFileSync(file, 'utf8').trim());
}
