import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { thinSeries } from './pdf-chart';
import { canonicalContent, type PdfReport, renderPdf, reportFingerprint, sha256Hex } from './pdf-writer';

async function pageTexts(bytes: Buffer): Promise<string[]> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)));
  return text.map((t) => t.replace(/\s+/g, ' '));
}

function report(rows: number, language: 'en' | 'cn' = 'en'): PdfReport {
  return {
    language,
    title: 'Table test',
    header: [['Company', '冷链医院']],
    sections: [
      {
        kind: 'table',
        columns: [{ header: 'Row number' }, { header: 'Note', weight: 3 }],
        rows: Array.from({ length: rows }, (_, i) => [
          `R${i + 1}`,
          i % 50 === 0 ? '一段中文备注 '.repeat(20) : 'ok',
        ]),
      },
    ],
  };
}

describe('pdf writer', () => {
  it('paginates a long table with its header on every page and "page n of m" with the fingerprint', async () => {
    const doc = report(300);
    const pdf = await renderPdf(doc);
    expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.fingerprint).toBe(reportFingerprint(doc));
    expect(pdf.fileSha256).toBe(sha256Hex(pdf.bytes));
    const pages = await pageTexts(pdf.bytes);
    expect(pages.length).toBe(pdf.pages);
    expect(pages.length).toBeGreaterThan(3);
    pages.forEach((text, i) => {
      expect(text).toContain('Row number Note');
      expect(text).toContain(`Page ${i + 1} of ${pages.length}`);
      expect(text).toContain(`Report SHA-256: ${pdf.fingerprint}`);
    });
    const all = pages.join(' ');
    // Every row once, in order, none lost at a page break.
    const numbers = [...all.matchAll(/\bR(\d+)\b/g)].map((m) => Number(m[1]));
    expect(numbers).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    expect(all).toContain('冷链医院');
    // Only the glyphs used are embedded: a few pages of CJK text stay small.
    expect(pdf.bytes.length).toBeLessThan(400_000);
  });

  it('fingerprints the content: the same content gives the same hash, any changed cell another', () => {
    const a = report(5);
    const b = report(5);
    expect(canonicalContent(a)).toBe(canonicalContent(b));
    expect(reportFingerprint(a)).toBe(reportFingerprint(b));
    const section = b.sections[0] as { rows: string[][] };
    section.rows[2]![1] = 'changed';
    expect(reportFingerprint(b)).not.toBe(reportFingerprint(a));
    // Key order does not matter, values do.
    expect(canonicalContent({ ...a, title: a.title })).toBe(canonicalContent(a));
  });

  it('prints the footer in Chinese', async () => {
    const pages = await pageTexts((await renderPdf(report(3, 'cn'))).bytes);
    expect(pages[0]).toContain('第 1 页，共 1 页');
  });

  it('thins a long series to bucket extremes without losing an excursion', () => {
    const series = Array.from({ length: 10_000 }, (_, i): [number, number] => [i, i === 7_777 ? 30 : 5]);
    const thin = thinSeries(series, 200);
    expect(thin.length).toBeLessThanOrEqual(200);
    expect(thin).toContainEqual([7_777, 30]);
    expect(thin.map(([t]) => t)).toEqual([...thin.map(([t]) => t)].sort((x, y) => x - y));
  });
});
