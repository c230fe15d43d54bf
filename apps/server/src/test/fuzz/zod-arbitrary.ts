import fc from 'fast-check';
import { anyEdge, edgeIds, edgeNumbers, edgeStrings } from './edge-values';

/*
 * fast-check arbitraries from zod 4 schema definitions (`schema._zod.def`), for the route fuzz.
 * Values mostly satisfy the schema (so handlers run, not only validation), with edge values mixed
 * in at every leaf. Refinements (`.refine`) cannot be walked: they are met by chance or by the
 * field hints below.
 */

interface ZodDef {
  type: string;
  [key: string]: unknown;
}
interface CheckDef {
  check: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  value?: number;
  length?: number;
  inclusive?: boolean;
  pattern?: RegExp;
}

const defOf = (schema: unknown): ZodDef | undefined => (schema as { _zod?: { def: ZodDef } })?._zod?.def;
const checksOf = (def: ZodDef): CheckDef[] =>
  ((def.checks as { _zod: { def: CheckDef } }[] | undefined) ?? []).map((c) => c._zod.def);

/**
 * Values for fields by name, where a schema alone cannot say what reaches deep code: ids of the
 * seeded companies, a department code, times around now. The generator picks from these part of
 * the time and from the schema the rest.
 */
export type FieldHints = Record<string, readonly unknown[]>;

export interface GenerateOptions {
  hints: FieldHints;
  /** Values for fields named `id` or `...Id` (and items of `...Ids`) not in `hints`. */
  ids: readonly unknown[];
}

/** How often (out of 10) a leaf takes an edge value of its own kind instead of a valid one. */
const EDGE_WEIGHT = 2;

export function zodArbitrary(schema: unknown, options: GenerateOptions, field = ''): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  if (!def) return anyEdge;
  const hinted = hintFor(field, options);
  const own = fromDef(def, options, field);
  return hinted ? fc.oneof({ arbitrary: hinted, weight: 3 }, { arbitrary: own, weight: 1 }) : own;
}

function hintFor(field: string, options: GenerateOptions): fc.Arbitrary<unknown> | undefined {
  const values = options.hints[field];
  if (values?.length) return fc.constantFrom(...values);
  if (field === 'id' || field.endsWith('Id')) return fc.constantFrom(...options.ids);
  return undefined;
}

function fromDef(def: ZodDef, options: GenerateOptions, field: string): fc.Arbitrary<unknown> {
  switch (def.type) {
    case 'string':
      return stringArbitrary(def, field, options);
    case 'number':
      return numberArbitrary(def);
    case 'boolean':
      return fc.oneof({ arbitrary: fc.boolean(), weight: 8 }, { arbitrary: anyEdge, weight: 1 });
    case 'enum':
      return withEdges(fc.constantFrom(...Object.values(def.entries as Record<string, unknown>)), anyEdge);
    case 'literal':
      return withEdges(fc.constantFrom(...(def.values as unknown[])), anyEdge);
    case 'array':
      return arrayArbitrary(def, options, field);
    case 'object':
      return objectArbitrary(def, options);
    case 'optional':
      return fc.option(zodArbitrary(def.innerType, options, field), { nil: undefined, freq: 3 });
    case 'nullable':
      return fc.option(zodArbitrary(def.innerType, options, field), { nil: null, freq: 3 });
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
      return fc.option(zodArbitrary(def.innerType, options, field), { nil: undefined, freq: 3 });
    case 'union':
      return fc.oneof(...(def.options as unknown[]).map((o) => zodArbitrary(o, options, field)));
    case 'pipe':
      return zodArbitrary(def.in, options, field);
    case 'lazy':
      return zodArbitrary((def.getter as () => unknown)(), options, field);
    case 'record':
      return fc.dictionary(fc.string({ maxLength: 8 }), zodArbitrary(def.valueType, options), { maxKeys: 4 });
    default:
      // transform, any, unknown and kinds no route uses yet: anything at all.
      return anyEdge;
  }
}

function withEdges(valid: fc.Arbitrary<unknown>, edges: fc.Arbitrary<unknown>) {
  return fc.oneof({ arbitrary: valid, weight: 10 - EDGE_WEIGHT }, { arbitrary: edges, weight: EDGE_WEIGHT });
}

function stringArbitrary(def: ZodDef, field: string, options: GenerateOptions): fc.Arbitrary<unknown> {
  let min = 0;
  // No declared maximum: generated text stays short, but a pattern's own length is not cut.
  let max: number | undefined;
  let pattern: RegExp | undefined;
  for (const c of checksOf(def)) {
    if (c.check === 'min_length') min = c.minimum ?? 0;
    if (c.check === 'max_length') max = c.maximum;
    if (c.check === 'length_equals') {
      min = c.length ?? 0;
      max = c.length;
    }
    if (c.check === 'string_format' && c.format === 'regex') pattern = c.pattern;
  }
  const shortMax = Math.max(min, Math.min(max ?? 40, 40));
  let valid: fc.Arbitrary<unknown>;
  if (pattern) {
    valid =
      safeStringMatching(pattern, max ?? Number.MAX_SAFE_INTEGER) ??
      fc.string({ minLength: min, maxLength: shortMax });
  } else if (def.format === 'url') {
    valid = fc.webUrl();
  } else if (def.format === 'email') {
    valid = fc.emailAddress();
  } else {
    valid = fc.oneof(
      fc.string({ minLength: min, maxLength: shortMax, unit: 'grapheme' }),
      fc.string({ minLength: min, maxLength: shortMax }),
    );
  }
  const lengths = max === undefined ? [Math.max(0, min - 1)] : [max, max + 1, Math.max(0, min - 1)];
  const boundaries = lengths.filter((n) => n <= 100_000).map((n) => 'b'.repeat(n));
  const idLike = field === 'id' || field.endsWith('Id') ? edgeIds : [];
  // Coercing strings (ids) also take numbers: their edge numbers matter as much as their strings.
  const coerced = def.coerce ? [...edgeNumbers, ...options.ids.filter((v) => typeof v === 'number')] : [];
  return withEdges(valid, fc.constantFrom(...edgeStrings, ...boundaries, ...idLike, ...coerced));
}

function safeStringMatching(pattern: RegExp, max: number): fc.Arbitrary<unknown> | undefined {
  try {
    // Cut to the maximum rather than filtered: a filter no generated string passes never ends.
    // What is then too short or no longer matches is one more invalid input, which is fine here.
    const arbitrary = fc.stringMatching(pattern).map((s) => (s.length > max ? s.slice(0, max) : s));
    // Some patterns (lookaheads, flags fast-check does not read) throw on first use: try once.
    fc.sample(arbitrary, { numRuns: 1, seed: 1 });
    return arbitrary;
  } catch {
    return undefined;
  }
}

function numberArbitrary(def: ZodDef): fc.Arbitrary<unknown> {
  let min = -1e9;
  let max = 1e9;
  let integer = false;
  for (const c of checksOf(def)) {
    if (c.check === 'number_format' && (c.format === 'safeint' || c.format?.startsWith('int')))
      integer = true;
    if (c.check === 'greater_than') min = Math.max(min, (c.value ?? min) + (c.inclusive ? 0 : 1e-9));
    if (c.check === 'less_than') max = Math.min(max, (c.value ?? max) - (c.inclusive ? 0 : 1e-9));
  }
  const valid = integer
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  const bounds = [min, max, Math.floor(min) - 1, Math.ceil(max) + 1];
  return withEdges(valid, fc.constantFrom(...edgeNumbers, ...bounds, ...edgeStrings.slice(14, 18)));
}

function arrayArbitrary(def: ZodDef, options: GenerateOptions, field: string): fc.Arbitrary<unknown> {
  let min = 0;
  let max = 5;
  for (const c of checksOf(def)) {
    if (c.check === 'min_length') min = c.minimum ?? 0;
    if (c.check === 'max_length') max = c.maximum ?? max;
  }
  // Items of `deviceIds`, `userIds`: ids, like a field named `...Id`.
  const itemField = field.endsWith('Ids') ? field.slice(0, -1) : '';
  const item = zodArbitrary(def.element, options, itemField);
  const valid = fc.array(item, { minLength: min, maxLength: Math.max(min, Math.min(max, 4)) });
  // One past the maximum, built from one item: the item cap is checked before anything else.
  const tooMany = item.map((v) => Array.from({ length: Math.min(max + 1, 10_001) }, () => v));
  return withEdges(valid, fc.oneof(tooMany, anyEdge));
}

function objectArbitrary(def: ZodDef, options: GenerateOptions): fc.Arbitrary<unknown> {
  const shape = def.shape as Record<string, unknown>;
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, value] of Object.entries(shape)) fields[key] = zodArbitrary(value, options, key);
  // Optional fields come as `undefined`, which JSON leaves out: the field is missing.
  return fc.record(fields);
}
