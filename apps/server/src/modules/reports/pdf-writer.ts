import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { WireLanguage } from '@coldchain/contract';
import PDFDocument from 'pdfkit';
import { reportTexts } from '../../i18n/catalogues/reports';
import { drawLineChart, type LineChart } from './pdf-chart';
import { isPrintableImage } from './pdf-image';

/**
 * THE one PDF writer of the server: sensor reports, PDF exports and scheduled report files all
 * describe their content as a `PdfReport` and call `renderPdf`. A4 portrait, the embedded Noto
 * Sans SC font (Chinese prints; pdfkit embeds only the glyphs used), a header block, then the
 * sections in order, and on every page a footer with "page n of m" and the report's fingerprint.
 *
 * The fingerprint is the SHA-256 of `canonicalContent(report)`: everything the report prints
 * except the footers (docs/decisions.md, "Report fingerprint"). The file's own hash cannot be
 * printed inside the file, so the content's is; both are stored with the file record.
 */

/** One column of a table: its header and its share of the page width (default 1). */
export interface PdfColumn {
  header: string;
  weight?: number;
  align?: 'left' | 'right';
}

export type PdfSection =
  | { kind: 'heading'; text: string }
  | { kind: 'facts'; pairs: Array<[label: string, value: string]> }
  | { kind: 'paragraph'; text: string }
  | { kind: 'table'; columns: PdfColumn[]; rows: string[][] }
  | ({ kind: 'chart' } & LineChart)
  | PdfImages;

/**
 * Pictures side by side (a receipt's photo and drawn signature), each fitted into its share of
 * the width and `height`, its caption under it. A picture that cannot be drawn (not a JPG or
 * PNG, damaged, too large) prints `unprintable` in its place. The fingerprint hashes each
 * picture's SHA-256, not its bytes.
 */
export interface PdfImages {
  kind: 'images';
  height: number;
  images: Array<{ caption: string; bytes: Buffer }>;
  unprintable: string;
}

export interface PdfReport {
  language: WireLanguage;
  title: string;
  /** A4 turned sideways, for tables of many columns. */
  landscape?: boolean;
  /** The header block under the title: label and value pairs, two per line. */
  header: Array<[label: string, value: string]>;
  sections: PdfSection[];
}

export interface RenderedPdf {
  bytes: Buffer;
  /** SHA-256 (hex) of the report's canonical content, printed on every page. */
  fingerprint: string;
  /** SHA-256 (hex) of the file's bytes. */
  fileSha256: string;
  pages: number;
}

const require = createRequire(import.meta.url);
const FONTS = {
  regular: require.resolve('@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf'),
  bold: require.resolve('@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf'),
};

const MARGIN = 40;
const FOOTER_HEIGHT = 24;
const BODY_SIZE = 8;
const CELL_PADDING = 3;
const HEADER_SHADE = '#e8e8e8';

/** A stable JSON text: object keys sorted, so equal content always gives the same bytes. */
function canonicalJson(value: unknown): string {
  if (Buffer.isBuffer(value)) return JSON.stringify(`sha256:${sha256Hex(value)}`);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The exact text the fingerprint hashes: the report's content as canonical JSON (UTF-8). */
export function canonicalContent(report: PdfReport): string {
  return canonicalJson(report);
}

export function reportFingerprint(report: PdfReport): string {
  return createHash('sha256').update(canonicalContent(report), 'utf8').digest('hex');
}

export function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

type Doc = PDFKit.PDFDocument;

function bottomLimit(doc: Doc): number {
  return doc.page.height - MARGIN - FOOTER_HEIGHT;
}

/** Moves to a new page when `height` does not fit above the footer; true when it did. */
function ensureRoom(doc: Doc, height: number): boolean {
  if (doc.y + height <= bottomLimit(doc)) return false;
  doc.addPage();
  return true;
}

function drawHeader(doc: Doc, report: PdfReport): void {
  const width = doc.page.width - 2 * MARGIN;
  doc.font('bold').fontSize(16).fillColor('#000').text(report.title, MARGIN, MARGIN, { width });
  doc.moveDown(0.4);
  drawFacts(doc, report.header);
  const y = doc.y + 4;
  doc
    .moveTo(MARGIN, y)
    .lineTo(MARGIN + width, y)
    .lineWidth(0.8)
    .strokeColor('#333')
    .stroke();
  doc.y = y + 8;
}

/** Label and value pairs, two pairs per line. */
function drawFacts(doc: Doc, pairs: Array<[string, string]>): void {
  const half = (doc.page.width - 2 * MARGIN) / 2;
  const labelWidth = 120;
  for (let i = 0; i < pairs.length; i += 2) {
    const line = pairs.slice(i, i + 2);
    const heights = line.flatMap(([label, value]) => [
      doc
        .font('bold')
        .fontSize(9)
        .heightOfString(label, { width: labelWidth - 4 }),
      doc
        .font('regular')
        .fontSize(9)
        .heightOfString(value || '-', { width: half - labelWidth - 6 }),
    ]);
    const height = Math.max(...heights, 12);
    ensureRoom(doc, height);
    const y = doc.y;
    line.forEach(([label, value], j) => {
      const x = MARGIN + j * half;
      doc
        .font('bold')
        .fontSize(9)
        .fillColor('#444')
        .text(label, x, y, { width: labelWidth - 4 });
      doc
        .font('regular')
        .fillColor('#000')
        .text(value || '-', x + labelWidth, y, { width: half - labelWidth - 6 });
    });
    doc.y = y + height + 2;
  }
}

function drawHeading(doc: Doc, text: string): void {
  ensureRoom(doc, 40);
  doc.moveDown(0.5);
  doc
    .font('bold')
    .fontSize(11)
    .fillColor('#000')
    .text(text, MARGIN, doc.y, { width: doc.page.width - 2 * MARGIN });
  doc.moveDown(0.2);
}

function drawParagraph(doc: Doc, text: string): void {
  const width = doc.page.width - 2 * MARGIN;
  doc.font('regular').fontSize(9);
  ensureRoom(doc, Math.min(doc.heightOfString(text, { width }), 200));
  doc.fillColor('#000').text(text, MARGIN, doc.y, { width });
}

/**
 * A table across the page width that continues on as many pages as it needs, its header row
 * repeated at the top of each. Cells wrap; a row is never split across pages.
 */
/** Rows drawn between two pauses of a long table, which let other requests (and progress) through. */
const ROWS_PER_PAUSE = 2_000;

async function drawTable(
  doc: Doc,
  columns: PdfColumn[],
  rows: string[][],
  onRows?: (done: number, total: number) => void,
): Promise<void> {
  const width = doc.page.width - 2 * MARGIN;
  const total = columns.reduce((s, c) => s + (c.weight ?? 1), 0);
  const widths = columns.map((c) => (width * (c.weight ?? 1)) / total);
  const lineHeight = doc.font('regular').fontSize(BODY_SIZE).currentLineHeight(true);

  /**
   * A row's layout: which cells fit on one line, and its height. Most cells of a long table are
   * short: they are written without the line wrapper, which is the slow part of pdfkit's text.
   */
  const layout = (cells: string[], font: 'regular' | 'bold') => {
    doc.font(font).fontSize(BODY_SIZE);
    let height = lineHeight;
    const widthsOfText = cells.map((cell, i) => {
      const room = widths[i]! - 2 * CELL_PADDING;
      const textWidth = doc.widthOfString(cell);
      if (textWidth > room) height = Math.max(height, doc.heightOfString(cell, { width: room }));
      return textWidth;
    });
    return { height: height + 2 * CELL_PADDING, widthsOfText };
  };
  // Row rules are stroked as one path per page: a stroke and its colour per row would double the
  // page's drawing operations (and the time and memory of a long table).
  let rules: number[] = [];
  const strokeRules = () => {
    if (rules.length === 0) return;
    for (const y of rules) doc.moveTo(MARGIN, y).lineTo(MARGIN + width, y);
    doc.lineWidth(0.3).strokeColor('#bbb').stroke();
    rules = [];
  };
  const drawRow = (cells: string[], font: 'regular' | 'bold', shade: string | null) => {
    const { height, widthsOfText } = layout(cells, font);
    if (doc.y + height > bottomLimit(doc)) {
      strokeRules();
      doc.addPage();
      if (font === 'regular') drawRow(headers, 'bold', HEADER_SHADE);
    }
    const y = doc.y;
    if (shade) doc.rect(MARGIN, y, width, height).fillColor(shade).fill().fillColor('#000');
    let x = MARGIN;
    doc.font(font).fontSize(BODY_SIZE);
    cells.forEach((cell, i) => {
      const room = widths[i]! - 2 * CELL_PADDING;
      const right = columns[i]?.align === 'right';
      if (widthsOfText[i]! <= room) {
        const left = right ? x + CELL_PADDING + room - widthsOfText[i]! : x + CELL_PADDING;
        doc.text(cell, left, y + CELL_PADDING, { lineBreak: false });
      } else {
        doc.text(cell, x + CELL_PADDING, y + CELL_PADDING, { width: room, align: right ? 'right' : 'left' });
      }
      x += widths[i]!;
    });
    rules.push(y + height);
    doc.y = y + height;
  };
  const headers = columns.map((c) => c.header);
  // The header row never ends a page alone.
  ensureRoom(doc, layout(headers, 'bold').height + lineHeight * 2);
  drawRow(headers, 'bold', HEADER_SHADE);
  doc.fillColor('#000');
  for (let i = 0; i < rows.length; i++) {
    drawRow(rows[i]!, 'regular', null);
    if ((i + 1) % ROWS_PER_PAUSE === 0) {
      onRows?.(i + 1, rows.length);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  onRows?.(rows.length, rows.length);
  strokeRules();
  doc.x = MARGIN;
}

function drawImages(doc: Doc, section: PdfImages): void {
  const gap = 12;
  const captionHeight = 14;
  const count = Math.max(section.images.length, 1);
  const width = (doc.page.width - 2 * MARGIN - gap * (count - 1)) / count;
  ensureRoom(doc, section.height + captionHeight + 6);
  const top = doc.y;
  section.images.forEach((image, i) => {
    const x = MARGIN + i * (width + gap);
    let drawn = false;
    if (isPrintableImage(image.bytes)) {
      try {
        doc.image(image.bytes, x, top, { fit: [width, section.height], align: 'center', valign: 'center' });
        drawn = true;
      } catch {
        // pdfkit refused it (an unknown JPEG variant): the placeholder below says so.
      }
    }
    if (!drawn) {
      doc.rect(x, top, width, section.height).lineWidth(0.5).strokeColor('#bbb').stroke();
      doc
        .font('regular')
        .fontSize(BODY_SIZE)
        .fillColor('#666')
        .text(section.unprintable, x + 6, top + section.height / 2 - 6, {
          width: width - 12,
          align: 'center',
        });
    }
    doc
      .font('regular')
      .fontSize(BODY_SIZE)
      .fillColor('#333')
      .text(image.caption, x, top + section.height + 3, { width, align: 'center', lineBreak: false });
  });
  doc.fillColor('#000');
  doc.y = top + section.height + captionHeight + 6;
  doc.x = MARGIN;
}

/** "Page n of m" and the fingerprint at the bottom of every page, once all pages exist. */
function drawFooters(doc: Doc, report: PdfReport, fingerprint: string): number {
  const texts = reportTexts.footer;
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Writing below the bottom margin would start a new page: lift the margin for the footer.
    const margins = doc.page.margins;
    doc.page.margins = { ...margins, bottom: 0 };
    const y = doc.page.height - MARGIN - 10;
    const width = doc.page.width - 2 * MARGIN;
    doc
      .moveTo(MARGIN, y - 6)
      .lineTo(MARGIN + width, y - 6)
      .lineWidth(0.5)
      .strokeColor('#999')
      .stroke();
    const page = texts.page[report.language]
      .replace('{n}', String(i - range.start + 1))
      .replace('{m}', String(range.count));
    doc.font('regular').fontSize(7).fillColor('#333');
    doc.text(`${texts.fingerprint[report.language]} ${fingerprint}`, MARGIN, y, {
      width: width - 90,
      lineBreak: false,
    });
    doc.text(page, MARGIN + width - 90, y, { width: 90, align: 'right', lineBreak: false });
    doc.page.margins = margins;
  }
  return range.count;
}

/** Renders a report to PDF bytes, with its fingerprint on every page. */
export async function renderPdf(
  report: PdfReport,
  /** Told how many rows of a table are drawn (export progress); tables pause now and then. */
  onTableRows?: (done: number, total: number) => void,
): Promise<RenderedPdf> {
  const fingerprint = reportFingerprint(report);
  const doc = new PDFDocument({
    size: 'A4',
    layout: report.landscape ? 'landscape' : 'portrait',
    margins: { top: MARGIN, bottom: MARGIN + FOOTER_HEIGHT, left: MARGIN, right: MARGIN },
    bufferPages: true,
    info: { Title: report.title, Producer: 'coldchain', Creator: 'coldchain', Subject: fingerprint },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  doc.registerFont('regular', FONTS.regular);
  doc.registerFont('bold', FONTS.bold);
  drawHeader(doc, report);
  for (const section of report.sections) {
    if (section.kind === 'heading') drawHeading(doc, section.text);
    else if (section.kind === 'facts') drawFacts(doc, section.pairs);
    else if (section.kind === 'paragraph') drawParagraph(doc, section.text);
    else if (section.kind === 'table') await drawTable(doc, section.columns, section.rows, onTableRows);
    else if (section.kind === 'images') drawImages(doc, section);
    else {
      ensureRoom(doc, section.height + 10);
      drawLineChart(doc, { x: MARGIN, y: doc.y, width: doc.page.width - 2 * MARGIN }, section);
      doc.y += section.height + 6;
      doc.x = MARGIN;
    }
  }
  const pages = drawFooters(doc, report, fingerprint);
  doc.end();
  await ended;
  const bytes = Buffer.concat(chunks);
  return { bytes, fingerprint, fileSha256: sha256Hex(bytes), pages };
}
