// Types of pglite-wire.mjs (plain JavaScript: it runs in the embedded database's thread).

export interface WireAnswer {
  error: (Error & Record<string, unknown>) | null;
  fields: { name: string; dataTypeID: number }[] | null;
  rows: (string | null)[][];
  command: string | undefined;
  affectedRows: number;
  parameterTypes: number[] | null;
}

export const SYNC: Uint8Array;
export const DESCRIBE_PORTAL: Uint8Array;
export const EXECUTE: Uint8Array;
export function queryMessage(text: string): Uint8Array;
export function bindMessage(
  statement: string,
  values: readonly (string | Uint8Array | null | undefined)[],
): Uint8Array;
export function parseMessage(name: string, text: string): Uint8Array;
export function describeStatementMessage(name: string): Uint8Array;
export function closeStatementMessage(name: string): Uint8Array;
export function joined(parts: readonly Uint8Array[]): Uint8Array;
export function answersIn(bytes: Buffer): WireAnswer[];
export function resultOf(
  answer: WireAnswer,
  rowMode: 'array' | 'object' | undefined,
  parsers: Record<number, (text: string, typeId: number) => unknown>,
): {
  rows: unknown[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows: number;
  command: string | undefined;
};
