import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Passwords are hashed with scrypt (RFC 7914) from Node's own crypto, so nothing native has to be
 * built at install time. The parameters are stored with each hash, so they can be raised later
 * without invalidating existing passwords: `scrypt$<N>$<r>$<p>$<salt b64>$<hash b64>`.
 */
const N = 2 ** 15;
const r = 8;
const p = 1;
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, n: number, rr: number, pp: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password,
      salt,
      KEY_LENGTH,
      { N: n, r: rr, p: pp, maxmem: 256 * n * rr + 1_048_576 },
      (err, key) => (err ? reject(err) : resolve(key)),
    );
  });
}

/**
 * `cost` is scrypt's N; every hash the product stores uses the default. Test factories pass a
 * small one: the same algorithm and verify path, without 100-200 ms of CPU per test login.
 */
export async function hashPassword(password: string, cost = N): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost, r, p);
  return ['scrypt', cost, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, rr, pp, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !rr || !pp || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), Number(n), Number(rr), Number(pp));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash of a random password: verifying against it costs the same time as a real one. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(12).toString('base64'));
  return dummyHash;
}
