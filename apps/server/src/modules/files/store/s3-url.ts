/**
 * S3_URL, the one setting of the S3-compatible file store (docs/file-storage.md):
 *
 *   http(s)://ACCESS_KEY:SECRET_KEY@host[:port]/bucket[/prefix][?region=us-east-1&style=path]
 *
 * The key and secret are percent-encoded (a secret holding `/` or `+` is written `%2F`, `%2B`);
 * without them the AWS SDK's own chain is used (AWS_ACCESS_KEY_ID, an instance role). Addressing
 * is path-style (`host/bucket/key`, what MinIO, Ceph and most S3-compatible servers expect)
 * unless `style=virtual` (`bucket.host/key`).
 */
export interface S3Settings {
  /** `scheme://host[:port]`, without credentials or path. */
  endpoint: string;
  bucket: string;
  /** Folder inside the bucket every key is stored under: `''` or ending with `/`. */
  prefix: string;
  region: string;
  forcePathStyle: boolean;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

export const S3_URL_FORMAT = 'http(s)://ACCESS_KEY:SECRET_KEY@host[:port]/bucket[/prefix][?region=...]';

/** S3's rule for bucket names (3 to 63 lower-case letters, digits, dots and hyphens). */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const PREFIX_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
const QUERY_KEYS = new Set(['region', 'style']);

/** The settings, or a sentence saying what is wrong (never repeating the secret). */
export function parseS3Url(text: string): S3Settings | string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `not a URL: expected ${S3_URL_FORMAT}`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `must start with http:// or https:// (${S3_URL_FORMAT})`;
  const [bucket = '', ...folders] = url.pathname.split('/').filter(Boolean);
  if (!bucket) return `names no bucket: expected ${S3_URL_FORMAT}`;
  if (!BUCKET.test(bucket))
    return `bucket "${bucket}" is not a valid bucket name (3-63 lower-case letters, digits, dots, hyphens)`;
  const badFolder = folders.find((f) => !PREFIX_SEGMENT.test(f));
  if (badFolder !== undefined)
    return `prefix folder "${badFolder}" may hold only letters, digits, ".", "_" and "-"`;
  for (const key of url.searchParams.keys())
    if (!QUERY_KEYS.has(key)) return `unknown parameter "${key}" (known: region, style)`;
  const style = url.searchParams.get('style') ?? 'path';
  if (style !== 'path' && style !== 'virtual') return `style must be "path" or "virtual", not "${style}"`;
  const region = url.searchParams.get('region') ?? 'us-east-1';
  if (!/^[a-z0-9-]{1,32}$/.test(region)) return `region "${region}" is not a region name (e.g. us-east-1)`;
  if (Boolean(url.username) !== Boolean(url.password))
    return 'give both the access key and the secret key (ACCESS_KEY:SECRET_KEY@host), or neither';
  let credentials: S3Settings['credentials'];
  try {
    credentials = url.username
      ? { accessKeyId: decodeURIComponent(url.username), secretAccessKey: decodeURIComponent(url.password) }
      : undefined;
  } catch {
    return 'the access key or secret key is not correctly percent-encoded';
  }
  return {
    endpoint: `${url.protocol}//${url.host}`,
    bucket,
    prefix: folders.map((f) => `${f}/`).join(''),
    region,
    forcePathStyle: style === 'path',
    ...(credentials ? { credentials } : {}),
  };
}

/** `s3://bucket/prefix at http://host:port`: where files go, without the credentials. */
export function describeS3(settings: S3Settings): string {
  return `s3://${settings.bucket}/${settings.prefix} at ${settings.endpoint}`;
}
