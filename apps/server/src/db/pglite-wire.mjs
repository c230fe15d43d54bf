// PostgreSQL's wire protocol as the embedded database's thread speaks it (pglite-thread.mjs):
// the few frontend messages it sends and the backend messages it reads. PGlite's own writer and
// parser (pg-protocol's) keep their state in private fields, which its build compiles to WeakMap
// look-ups at every step, and they measure each string's UTF-8 length in a JavaScript loop: under
// a load of writes they were a fifth of the thread's time, against about half for PostgreSQL
// itself (docs/performance.md, "The thread's own protocol code"). Here each message is sized with
// Buffer.byteLength, written into one buffer and read with native UTF-8 decoding. Plain
// JavaScript, as the thread is; pglite-wire.test.ts checks both directions against PGlite's own.

/** A message with no body: its type byte and its length (4). */
const bare = (type) => Uint8Array.from([type.charCodeAt(0), 0, 0, 0, 4]);

/** Sync, constant. */
export const SYNC = bare('S');
/** Describe of the unnamed portal, constant. */
export const DESCRIBE_PORTAL = Uint8Array.from([0x44, 0, 0, 0, 6, 0x50, 0]);
/** Execute of the unnamed portal with no row limit, constant. */
export const EXECUTE = Uint8Array.from([0x45, 0, 0, 0, 9, 0, 0, 0, 0, 0]);

/** A simple Query of `text`. */
export function queryMessage(text) {
  const size = Buffer.byteLength(text);
  const out = Buffer.allocUnsafe(1 + 4 + size + 1);
  out[0] = 0x51; // Q
  out.writeInt32BE(4 + size + 1, 1);
  out.write(text, 5);
  out[5 + size] = 0;
  return out;
}

/**
 * A Bind of the prepared statement `statement` to the unnamed portal with `values` (text, or
 * bytes sent in binary format, or null), every result in text format.
 */
export function bindMessage(statement, values) {
  const count = values.length;
  const nameSize = Buffer.byteLength(statement);
  const sizes = new Array(count);
  let binary = false;
  let valuesSize = 0;
  for (let i = 0; i < count; i++) {
    const value = values[i];
    let size = -1;
    if (ArrayBuffer.isView(value)) {
      binary = true;
      size = value.byteLength;
    } else if (value !== null && value !== undefined) {
      size = Buffer.byteLength(typeof value === 'string' ? value : String(value));
    }
    sizes[i] = size;
    valuesSize += 4 + Math.max(size, 0);
  }
  // With no bytes among the values no format is listed: PostgreSQL takes them all as text.
  const formats = binary ? count : 0;
  // portal '' (1), the statement's name and its NUL, the formats' count and codes, the values'
  // count and the values, the results' formats' count (0: all text).
  const length = 4 + 1 + nameSize + 1 + 2 + 2 * formats + 2 + valuesSize + 2;
  const out = Buffer.allocUnsafe(1 + length);
  out[0] = 0x42; // B
  out.writeInt32BE(length, 1);
  let at = 5;
  out[at++] = 0;
  at += out.write(statement, at);
  out[at++] = 0;
  at = out.writeUInt16BE(formats, at);
  for (let i = 0; i < formats; i++) at = out.writeUInt16BE(ArrayBuffer.isView(values[i]) ? 1 : 0, at);
  at = out.writeUInt16BE(count, at);
  for (let i = 0; i < count; i++) {
    at = out.writeInt32BE(sizes[i], at);
    const value = values[i];
    if (sizes[i] <= 0) continue;
    if (ArrayBuffer.isView(value)) {
      out.set(new Uint8Array(value.buffer, value.byteOffset, value.byteLength), at);
      at += value.byteLength;
    } else {
      at += out.write(typeof value === 'string' ? value : String(value), at);
    }
  }
  out.writeUInt16BE(0, at);
  return out;
}

/** Parse of `text` as the prepared statement `name`, with its parameters' types left to PostgreSQL. */
export function parseMessage(name, text) {
  const nameSize = Buffer.byteLength(name);
  const textSize = Buffer.byteLength(text);
  const length = 4 + nameSize + 1 + textSize + 1 + 2;
  const out = Buffer.allocUnsafe(1 + length);
  out[0] = 0x50; // P
  out.writeInt32BE(length, 1);
  let at = 5 + out.write(name, 5);
  out[at++] = 0;
  at += out.write(text, at);
  out[at++] = 0;
  out.writeUInt16BE(0, at);
  return out;
}

/** Describe ('S') or Close ('S') of the prepared statement `name`. */
function statementMessage(type, name) {
  const size = Buffer.byteLength(name);
  const out = Buffer.allocUnsafe(1 + 4 + 1 + size + 1);
  out[0] = type.charCodeAt(0);
  out.writeInt32BE(4 + 1 + size + 1, 1);
  out[5] = 0x53; // S
  out.write(name, 6);
  out[6 + size] = 0;
  return out;
}

export const describeStatementMessage = (name) => statementMessage('D', name);
export const closeStatementMessage = (name) => statementMessage('C', name);

/** The parts as one buffer, as the database takes a call's messages. */
export function joined(parts) {
  if (parts.length === 1) return parts[0];
  return Buffer.concat(parts);
}

/**
 * The fields of an ErrorResponse, named as pg-protocol names them on its DatabaseError (those
 * pglite-thread.mjs carries across threads, and the rest of what PostgreSQL sends).
 */
const ERROR_FIELD_NAMES = {
  S: 'severity',
  C: 'code',
  D: 'detail',
  H: 'hint',
  P: 'position',
  p: 'internalPosition',
  q: 'internalQuery',
  W: 'where',
  s: 'schema',
  t: 'table',
  c: 'column',
  d: 'dataType',
  n: 'constraint',
  F: 'file',
  L: 'line',
  R: 'routine',
};

function errorOf(bytes, start, end) {
  const error = new Error('');
  error.name = 'error';
  let at = start;
  while (at < end && bytes[at] !== 0) {
    const code = String.fromCharCode(bytes[at]);
    const stop = bytes.indexOf(0, at + 1);
    const value = bytes.utf8Slice(at + 1, stop);
    if (code === 'M') error.message = value;
    else if (ERROR_FIELD_NAMES[code]) error[ERROR_FIELD_NAMES[code]] = value;
    at = stop + 1;
  }
  return error;
}

/** A new answer: what one statement (up to its ReadyForQuery) gave back. */
const newAnswer = () => ({
  error: null,
  fields: null,
  rows: [],
  command: undefined,
  affectedRows: 0,
  parameterTypes: null,
});

/** Commands whose tag ends in a count of the rows they changed, as PGlite counts `affectedRows`. */
const COUNTED = new Set(['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE']);

/**
 * The backend messages in `bytes` (a Buffer), split at each ReadyForQuery: one answer per Sync
 * or simple Query, each with its error (the first), its fields, its rows as arrays of texts (null
 * for SQL null), its command tag's first word and the rows it changed, and a Describe's parameter
 * types. A simple Query of several statements answers with its first one's rows, as PGlite's
 * `query` does. Messages the thread does not use (notices, parameter status, notifications) are
 * skipped.
 */
export function answersIn(bytes) {
  const answers = [];
  let answer = newAnswer();
  let at = 0;
  while (at + 5 <= bytes.length) {
    const type = bytes[at];
    const end = at + 1 + bytes.readInt32BE(at + 1);
    let p = at + 5;
    // After the first command's tag, only a later error (and the end) matters.
    const first = answer.command === undefined;
    switch (first || type === 0x45 || type === 0x5a ? type : 0) {
      case 0x54: {
        // T: RowDescription
        const count = bytes.readUInt16BE(p);
        p += 2;
        const fields = new Array(count);
        for (let i = 0; i < count; i++) {
          const stop = bytes.indexOf(0, p);
          const name = bytes.utf8Slice(p, stop);
          p = stop + 1 + 4 + 2; // table oid, column number
          fields[i] = { name, dataTypeID: bytes.readInt32BE(p) };
          p += 4 + 2 + 4 + 2; // type oid, size, modifier, format
        }
        answer.fields = fields;
        break;
      }
      case 0x44: {
        // D: DataRow
        const count = bytes.readUInt16BE(p);
        p += 2;
        const row = new Array(count);
        for (let i = 0; i < count; i++) {
          const size = bytes.readInt32BE(p);
          p += 4;
          if (size < 0) row[i] = null;
          else {
            row[i] = bytes.utf8Slice(p, p + size);
            p += size;
          }
        }
        answer.rows.push(row);
        break;
      }
      case 0x43: {
        // C: CommandComplete
        const tag = bytes.utf8Slice(p, end - 1);
        const words = tag.split(' ');
        answer.command = words[0];
        if (COUNTED.has(words[0])) answer.affectedRows = Number.parseInt(words.at(-1), 10) || 0;
        break;
      }
      case 0x45:
        // E: ErrorResponse; PostgreSQL skips to the Sync after it, so an answer has one.
        answer.error ??= errorOf(bytes, p, end);
        break;
      case 0x74: {
        // t: ParameterDescription
        const count = bytes.readUInt16BE(p);
        const types = new Array(count);
        for (let i = 0; i < count; i++) types[i] = bytes.readInt32BE(p + 2 + 4 * i);
        answer.parameterTypes = types;
        break;
      }
      case 0x5a:
        // Z: ReadyForQuery
        answers.push(answer);
        answer = newAnswer();
        break;
      default:
        break;
    }
    at = end;
  }
  return answers;
}

/**
 * A statement's answer as PGlite's `query` gives it: rows as objects of the fields' names (or as
 * arrays for `rowMode: 'array'`), each value through `parsers` by its type (a value of a type with
 * no parser stays text), and the command's tag.
 */
export function resultOf(answer, rowMode, parsers) {
  if (answer.error) throw answer.error;
  const fields = answer.fields ?? [];
  const convert = fields.map(({ dataTypeID }) => parsers[dataTypeID]);
  const rows = answer.rows.map((texts) => {
    if (rowMode === 'array') {
      return texts.map((text, i) =>
        text === null || !convert[i] ? text : convert[i](text, fields[i].dataTypeID),
      );
    }
    const row = {};
    for (let i = 0; i < texts.length; i++) {
      const text = texts[i];
      row[fields[i].name] = text === null || !convert[i] ? text : convert[i](text, fields[i].dataTypeID);
    }
    return row;
  });
  return { rows, fields, affectedRows: answer.affectedRows, command: answer.command };
}
