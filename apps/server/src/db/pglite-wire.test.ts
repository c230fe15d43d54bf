import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answersIn,
  bindMessage,
  DESCRIBE_PORTAL,
  describeStatementMessage,
  EXECUTE,
  joined,
  parseMessage,
  queryMessage,
  resultOf,
  SYNC,
} from './pglite-wire.mjs';

// The thread's own protocol code (pglite-wire.mjs) against PGlite's: every statement here runs
// both ways on one database, and the answers must be the same, values, types, errors and all.

let db: PGlite;
let names = 0;

async function rawCall(parts: Uint8Array[]) {
  const chunks: Buffer[] = [];
  await db.execProtocolRawStream(joined(parts), {
    syncToFs: false,
    onRawData: (chunk: Uint8Array) => {
      chunks.push(Buffer.from(chunk));
      return chunk.length;
    },
  } as never);
  return answersIn(Buffer.concat(chunks));
}

/** `sql` with `params` through the wire code: prepared, bound, described, executed, as the thread runs it. */
async function viaWire(sql: string, params: unknown[] = [], rowMode?: 'array') {
  const name = `wire_${++names}`;
  const [prepared] = await rawCall([parseMessage(name, sql), describeStatementMessage(name), SYNC]);
  if (prepared?.error) throw prepared.error;
  const types = prepared?.parameterTypes ?? [];
  const texts = params.map((value, i) => {
    if (value === null || value === undefined) return null;
    const serializer = db.serializers[types[i]!];
    return serializer ? serializer(value) : String(value);
  });
  const [answer] = await rawCall([bindMessage(name, texts), DESCRIBE_PORTAL, EXECUTE, SYNC]);
  const { rows, fields, affectedRows } = resultOf(answer!, rowMode, db.parsers);
  return { rows, fields, affectedRows };
}

async function viaPglite(sql: string, params: unknown[] = [], rowMode?: 'array') {
  const { rows, fields, affectedRows } = await db.query(sql, params, rowMode ? { rowMode } : undefined);
  return { rows, fields, affectedRows };
}

async function errorOf(run: () => Promise<unknown>) {
  try {
    await run();
  } catch (error) {
    return error as Record<string, unknown>;
  }
  throw new Error('expected the statement to fail');
}

const PICKED = ['name', 'message', 'code', 'severity', 'detail', 'constraint', 'table', 'schema', 'position'];
const picked = (error: Record<string, unknown>) => Object.fromEntries(PICKED.map((key) => [key, error[key]]));

beforeAll(async () => {
  db = new PGlite();
  await db.exec(`create table things (id bigint primary key, label text unique, doc jsonb, tags text[], raw bytea,
                   at timestamptz, price numeric(10, 2), ok boolean)`);
});

afterAll(async () => {
  await db.close();
});

describe('the embedded thread’s wire code', () => {
  it('answers values of every kind as PGlite does, texts of any script included', async () => {
    const texts = [
      '',
      'plain',
      'quote " and \\ backslash',
      'line\nbreak\ttab',
      '温度超标 °C',
      'emoji 🧊❄️',
      '\u2028 sep',
    ];
    const sql = `select $1::text as t, $2::bigint as big, $3::int as small, $4::numeric as num, $5::boolean as ok,
                        $6::timestamptz as at, $7::jsonb as doc, $8::json as j, $9::text[] as list, null::text as nothing,
                        $10::bytea as raw, 1.5::float8 as f`;
    for (const text of texts) {
      const params = [
        text,
        '9007199254740993',
        -7,
        '12.50',
        true,
        new Date('2026-12-07T10:00:00.123Z'),
        { a: [1, text], b: null },
        JSON.stringify({ text }),
        ['a', text, 'x,y', '{}'],
        new Uint8Array([0, 1, 254, 255]),
      ];
      const wire = await viaWire(sql, params);
      expect(wire).toEqual(await viaPglite(sql, params));
      expect(wire.rows[0]).toMatchObject({ t: text, small: -7, ok: true, nothing: null });
      expect(await viaWire(sql, params, 'array')).toEqual(await viaPglite(sql, params, 'array'));
    }
  });

  it('counts the rows a change touched, and answers what it returns', async () => {
    const insert =
      'insert into things (id, label, doc, tags, at, price, ok) values ($1, $2, $3, $4, $5, $6, $7) returning *';
    const first = await viaWire(insert, [1, 'one', { n: 1 }, ['x'], new Date(0), '3.10', false]);
    expect(first.affectedRows).toBe(1);
    expect(first.rows).toEqual([
      {
        id: 1,
        label: 'one',
        doc: { n: 1 },
        tags: ['x'],
        raw: null,
        at: new Date(0),
        price: '3.10',
        ok: false,
      },
    ]);
    await viaPglite(insert, [2, 'two', null, [], null, null, null]);
    const update = 'update things set ok = $1 where id > $2';
    expect(await viaWire(update, [true, 0])).toEqual({ rows: [], fields: [], affectedRows: 2 });
    const many = 'select id, label from things order by id';
    expect(await viaWire(many)).toEqual(await viaPglite(many));
    const none = 'select id from things where id < $1';
    expect(await viaWire(none, [0])).toEqual(await viaPglite(none, [0]));
    expect(await viaWire('delete from things where id = $1', [2])).toMatchObject({ affectedRows: 1 });
  });

  it('keeps an error its message, code, detail, constraint and position', async () => {
    const duplicate = 'insert into things (id, label) values ($1, $2)';
    const wire = await errorOf(() => viaWire(duplicate, [9, 'one']));
    const pglite = await errorOf(() => viaPglite(duplicate, [9, 'one']));
    expect(picked(wire)).toEqual(picked(pglite));
    expect(wire).toMatchObject({ name: 'error', code: '23505', constraint: 'things_label_key' });
    expect(String(wire.detail)).toContain('(label)=(one)');

    const typo = 'select id frm things';
    const wireTypo = await errorOf(() => viaWire(typo));
    expect(picked(wireTypo)).toEqual(picked(await errorOf(() => viaPglite(typo))));
    expect(wireTypo).toMatchObject({ code: '42601', position: '15' });
  });

  it('answers each statement of a call by itself, one that failed among them', async () => {
    const [ok, failed, after] = await rawCall([
      queryMessage('select 1 as one'),
      queryMessage('select 1/0'),
      queryMessage("select 'still' as word"),
    ]);
    expect(resultOf(ok!, undefined, db.parsers).rows).toEqual([{ one: 1 }]);
    expect(() => resultOf(failed!, undefined, db.parsers)).toThrow('division by zero');
    expect(resultOf(after!, undefined, db.parsers)).toMatchObject({
      rows: [{ word: 'still' }],
      command: 'SELECT',
    });
  });

  it('answers a simple query of several statements with the first, as PGlite’s query does', async () => {
    const [answer] = await rawCall([queryMessage("select 'a' as first; select 'b' as second, 2 as n")]);
    expect(resultOf(answer!, undefined, db.parsers)).toEqual({
      rows: [{ first: 'a' }],
      fields: [{ name: 'first', dataTypeID: 25 }],
      affectedRows: 0,
      command: 'SELECT',
    });
    const [later] = await rawCall([queryMessage("select 'a'; select 1/0")]);
    expect(() => resultOf(later!, undefined, db.parsers)).toThrow('division by zero');
  });

  it('reads a large answer whole, however PostgreSQL cut its output', async () => {
    const sql = "select i, repeat('温', 2000) || i as long from generate_series(1, 300) as i";
    const wire = await viaWire(sql);
    expect(wire.rows).toHaveLength(300);
    expect(wire).toEqual(await viaPglite(sql));
  });

  it('binds and describes more parameters than a signed 16-bit count holds', async () => {
    // PostgreSQL takes up to 65 535 parameters; their count crosses as 16 bits, read unsigned.
    const count = 40_000;
    const sql = `select cardinality(array[${Array.from({ length: count }, (_, i) => `$${i + 1}::int`).join(', ')}]) as n`;
    const params = Array.from({ length: count }, (_, i) => i);
    expect(await viaWire(sql, params)).toEqual({
      rows: [{ n: count }],
      fields: [{ name: 'n', dataTypeID: 23 }],
      affectedRows: 0,
    });
  });

  it('describes a statement’s parameters by their types', async () => {
    const [answer] = await rawCall([
      parseMessage('typed', 'select $1::bigint, $2::text, $3::jsonb'),
      describeStatementMessage('typed'),
      SYNC,
    ]);
    expect(answer?.parameterTypes).toEqual([20, 25, 3802]);
  });
});
