import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { columnLetters, escapeXml, writeXlsx } from './xlsx-writer';
import { tableCrc32ForTest } from './zip-writer';

/*
 * The hand-written xlsx writer (xlsx-writer.ts, zip-writer.ts) read back by exceljs, a reader
 * that shares no code with it: cells, types, header style, frozen row, widths, and a long sheet.
 */

async function readBack(bytes: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  return workbook;
}

describe('xlsx writer', () => {
  it('writes text, numbers and awkward characters that a spreadsheet reads back as written', async () => {
    const rows: Array<Array<string | number>> = [
      ['冷库 3 号', -18.5, 'a & b < c > d "e"'],
      ['  leading and trailing  ', 0, "'=1+1"],
      ['bell\u0007 and tab\there', 1e-7, ''],
      ['x', Number.NaN, 'last'],
    ];
    const bytes = await writeXlsx(
      'Readings: 1/2',
      [
        { header: 'Name', width: 24 },
        { header: '数值', width: 10 },
        { header: 'Remarks', width: 30 },
      ],
      rows,
    );
    const workbook = await readBack(bytes);
    const sheet = workbook.worksheets[0]!;
    // ":" and "/" are not allowed in a sheet name.
    expect(sheet.name).toBe('Readings  1 2');
    expect(sheet.getRow(1).values).toEqual([undefined, 'Name', '数值', 'Remarks']);
    expect(sheet.getCell('A1').font?.bold).toBe(true);
    expect(sheet.getCell('A2').font?.bold).toBeFalsy();
    expect(sheet.getColumn(1).width).toBe(24);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });

    expect(sheet.getCell('A2').value).toBe('冷库 3 号');
    expect(sheet.getCell('B2').value).toBe(-18.5);
    expect(typeof sheet.getCell('B2').value).toBe('number');
    expect(sheet.getCell('C2').value).toBe('a & b < c > d "e"');
    expect(sheet.getCell('A3').value).toBe('  leading and trailing  ');
    expect(sheet.getCell('B3').value).toBe(0);
    expect(sheet.getCell('C3').value).toBe("'=1+1");
    // XML 1.0 cannot carry a bell character: it is dropped, the tab is kept.
    expect(sheet.getCell('A4').value).toBe('bell and tab\there');
    expect(sheet.getCell('B4').value).toBe(1e-7);
    // Empty text is no cell at all (as exceljs' writer did).
    expect(sheet.getCell('C4').value).toBeNull();
    // A number that is not finite is written as its text rather than as a broken number.
    expect(sheet.getCell('B5').value).toBe('NaN');
    expect(sheet.rowCount).toBe(5);
  });

  it('writes a long sheet in pieces and reports its progress up to the last row', async () => {
    const count = 25_000;
    const seen: number[] = [];
    const bytes = await writeXlsx(
      'Long',
      [
        { header: 'n', width: 8 },
        { header: 'text', width: 8 },
      ],
      (function* () {
        for (let i = 0; i < count; i++) yield [i, `row ${i}`];
      })(),
      (written) => seen.push(written),
    );
    const sheet = (await readBack(bytes)).worksheets[0]!;
    expect(sheet.rowCount).toBe(count + 1);
    expect(sheet.getCell(`A${count + 1}`).value).toBe(count - 1);
    expect(sheet.getCell(`B${count + 1}`).value).toBe(`row ${count - 1}`);
    expect(seen.length).toBeGreaterThan(10);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.at(-1)).toBe(count);
  });

  it('names columns past Z as a spreadsheet does', () => {
    expect([0, 25, 26, 51, 52, 701, 702].map(columnLetters)).toEqual([
      'A',
      'Z',
      'AA',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
    ]);
  });

  it('escapes markup and leaves plain text untouched', () => {
    expect(escapeXml('<a href="x">&</a>')).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;');
    const plain = 'plain text 温度';
    expect(escapeXml(plain)).toBe(plain);
  });

  it("computes the zip CRC-32 as zlib does, where Node's own is missing", () => {
    const zlibCrc = (zlib as unknown as { crc32?: (d: Buffer, p?: number) => number }).crc32;
    const data = randomBytes(100_000);
    // The check value of CRC-32 (ISO-HDLC) for "123456789".
    expect(tableCrc32ForTest(Buffer.from('123456789'), 0)).toBe(0xcbf43926);
    if (zlibCrc) {
      expect(tableCrc32ForTest(data, 0)).toBe(zlibCrc(data));
      const half = tableCrc32ForTest(data.subarray(0, 50_000), 0);
      expect(tableCrc32ForTest(data.subarray(50_000), half)).toBe(zlibCrc(data));
    }
  });
});
