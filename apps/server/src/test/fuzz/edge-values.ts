import fc from 'fast-check';

/*
 * Edge values the fuzz mixes into generated bodies: the inputs that broke real servers before
 * (NUL bytes and lone surrogates in text columns, numbers that do not fit a column, timestamps at
 * the end of Date's range, formula and script injection, prototype keys, wrong types).
 */

/**
 * A number JSON.stringify cannot write (1e999 parses to Infinity): kept as a token and written
 * into the JSON text as it is, so the server's own JSON parser meets it.
 */
export class RawNumber {
  constructor(readonly token: string) {}
}

/** A key written as `__proto__` in the JSON text (an object literal cannot hold it as a key). */
export const PROTO_KEY = '\u0001proto\u0001';

export const edgeStrings: readonly string[] = [
  '',
  ' ',
  '\t\n',
  'a'.repeat(10_000),
  'x'.repeat(70_000),
  '中文名称',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 👩‍👩‍👧 é',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\u202eRTL',
  '<script>alert(1)</script>',
  '=HYPERLINK("http://example.com","x")',
  '+SUM(1,1)',
  '-0',
  'NaN',
  'Infinity',
  '1e300',
  'null',
  'true',
  '__proto__',
  'constructor',
  '../../etc/passwd',
  "'; DROP TABLE users; --",
  '%s%n%x',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as text.
  '${7*7}{{7*7}}',
];

export const edgeNumbers: readonly (number | RawNumber)[] = [
  0,
  -0,
  -1,
  1.5,
  1e300,
  -1e300,
  1e-300,
  3e39,
  -3e39,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53 + 2,
  2 ** 63,
  8.64e15,
  -8.64e15,
  8.64e15 + 1,
  1e10,
  new RawNumber('1e999'),
  new RawNumber('-1e999'),
];

/** Id-shaped values: huge, negative, padded, fractional, beyond 2^53, beyond bigint. */
export const edgeIds: readonly unknown[] = [
  '0',
  '-1',
  '01',
  '1.0',
  ' 1 ',
  '1e3',
  '9999999999999999',
  '9007199254740993',
  '99999999999999999999',
  2 ** 31,
  -5,
  // Beyond 2^64 as a JSON number (a literal this large loses precision, which is the point).
  new RawNumber('99999999999999999999'),
];

const otherEdges: readonly unknown[] = [true, false, null, [], {}, [null], [{}], ['1'], [[]], { a: 1 }];

/** Any edge value, of any type: what a field receives when the fuzz puts a wrong type in it. */
export const anyEdge: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...edgeStrings),
  fc.constantFrom(...edgeNumbers),
  fc.constantFrom(...edgeIds),
  fc.constantFrom(...otherEdges),
);

/**
 * A generated body changed one way: a field replaced by an edge value, a field removed, an
 * unknown or `__proto__` field added, or the whole body replaced (array, string, number, null).
 */
export function mutateBody(body: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const replaceField = fc.tuple(body, fc.nat(), anyEdge).map(([value, n, edge]) =>
    withObject(value, (o, keys) => {
      if (keys.length) o[keys[n % keys.length]!] = edge;
    }),
  );
  const dropField = fc.tuple(body, fc.nat()).map(([value, n]) =>
    withObject(value, (o, keys) => {
      if (keys.length) delete o[keys[n % keys.length]!];
    }),
  );
  const extraField = fc
    .tuple(body, fc.constantFrom('extra', PROTO_KEY, 'constructor'), anyEdge)
    .map(([value, key, edge]) =>
      withObject(value, (o) => {
        o[key] = key === PROTO_KEY ? { isAdmin: true } : edge;
      }),
    );
  const wholeBody = fc.oneof(
    anyEdge,
    body.map((v) => [v]),
  );
  return fc.oneof(replaceField, dropField, extraField, wholeBody);
}

function withObject(value: unknown, change: (o: Record<string, unknown>, keys: string[]) => void) {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const copy = { ...(value as Record<string, unknown>) };
  change(copy, Object.keys(copy));
  return copy;
}

/** The JSON text of a generated body, with raw number tokens and `__proto__` keys put in place. */
export function toJsonText(body: unknown): string {
  const tokens: string[] = [];
  const text = JSON.stringify(body, (_key, value) => {
    if (value instanceof RawNumber) {
      tokens.push(value.token);
      return `\u0001raw${tokens.length - 1}\u0001`;
    }
    return value;
  });
  if (text === undefined) return '';
  return text
    .replace(/"\\u0001raw(\d+)\\u0001"/g, (_m, i: string) => tokens[Number(i)]!)
    .replaceAll(JSON.stringify(PROTO_KEY), '"__proto__"');
}
