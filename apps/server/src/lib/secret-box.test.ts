import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SecretBox, secretBoxFor } from './secret-box';

const dir = mkdtempSync(path.join(tmpdir(), 'secret-box-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('secret box', () => {
  it('opens what it sealed, never with another key, and fails on a changed byte', () => {
    const box = new SecretBox('k'.repeat(32));
    const sealed = box.seal('app-secret-123');
    expect(sealed).toMatch(/^v1:/);
    expect(sealed).not.toContain('app-secret-123');
    expect(box.seal('app-secret-123')).not.toBe(sealed);
    expect(box.open(sealed)).toBe('app-secret-123');
    expect(() => new SecretBox('x'.repeat(32)).open(sealed)).toThrow();
    // A character of the authentication tag (16 bytes: every bit of its base64 characters is data).
    const at = 'v1:'.length + 17 + 3;
    const changed = sealed.slice(0, at) + (sealed[at] === 'A' ? 'B' : 'A') + sealed.slice(at + 1);
    expect(() => box.open(changed)).toThrow();
  });

  it('makes a private key file in the data folder once, and reads it back after a restart', () => {
    const dataDir = path.join(dir, 'data');
    const sealed = secretBoxFor({ dataDir }).seal('kept');
    const file = path.join(dataDir, 'secret.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(secretBoxFor({ dataDir }).open(sealed)).toBe('kept');
    // SECRET_KEY, when set, is the key: the file's key does not open its values.
    expect(() => secretBoxFor({ dataDir, secretKey: 's'.repeat(32) }).open(sealed)).toThrow();
  });
});
