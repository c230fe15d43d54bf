import { DeliveryState, type WireLanguage } from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { buildExportFile, type Download } from '../audit/export-file';
import { companies } from '../companies/companies.table';
import { readUpload } from '../files/file-store';
import type { FileStore } from '../files/store/store';
import { thinSeries } from '../reports/pdf-chart';
import { type PdfReport, type PdfSection, renderPdf } from '../reports/pdf-writer';
import { sampleAtInterval } from '../reports/report-figures';
import { instantFormatter } from '../reports/report-time';
import type { DeliveryRow } from './deliveries.service';
import type { AddressCopy } from './deliveries.table';
import { shipmentSummary } from './delivery-figures';
import { noteTexts } from './delivery-texts';
import { loadTrip, temperatureTrips, windowOf } from './delivery-view';

/** Rows the PDF's readings table keeps per sensor; the xlsx holds every reading. */
const PDF_TABLE_ROWS = 400;
const CHART_POINTS = 600;

/**
 * The receipt's pictures as the note prints them: the photo of the goods (a stored upload) and
 * the signature a link receiver drew (a PNG data URL). A photo whose file is gone is left out.
 */
async function receiptImages(
  store: FileStore,
  photo: string | null,
  drawn: string | undefined,
  text: { photo: string; drawnSignature: string },
) {
  const images: Array<{ caption: string; bytes: Buffer }> = [];
  const stored = photo ? await readUpload(store, photo) : null;
  if (stored) images.push({ caption: text.photo, bytes: stored.bytes });
  if (drawn?.startsWith(PNG_DATA_URL))
    images.push({
      caption: text.drawnSignature,
      bytes: Buffer.from(drawn.slice(PNG_DATA_URL.length), 'base64'),
    });
  return images;
}

const PNG_DATA_URL = 'data:image/png;base64,';

const rangeText = (min: number | null, max: number | null, unit: string) =>
  `${min ?? '-'} .. ${max ?? '-'} ${unit}`;

/**
 * The delivery note (issue 18 item 4): consignment, sender, carrier, receiver, the trip's
 * temperature chart and table, excursions, gaps, handover times and the receiver's decision with
 * its signature manifestation. Drawn by the reports' one PDF writer (reports/pdf-writer.ts), so
 * it carries the same fingerprint footer; the readings as xlsx go through the one export writer.
 */
export async function deliveryNote(
  db: Queryable,
  row: DeliveryRow,
  format: 'pdf' | 'xlsx',
  language: WireLanguage,
  timeZone: string,
  files: { store: FileStore },
  now = Date.now(),
): Promise<Download> {
  const text = noteTexts[language];
  const at = instantFormatter(timeZone);
  const when = (ms: number | null | undefined) => (ms ? at(ms) : '-');
  const trip = await loadTrip(db, row, now);
  const stem = `${text.title}-${row.orderNo}`;
  if (format === 'xlsx') {
    const rows = trip.sensors.flatMap((s) => s.points.map(([ts, v]) => ({ s, ts, v })));
    const file = await buildExportFile(
      'xlsx',
      `${text.title} ${row.orderNo}`,
      [
        { header: text.time, width: 20, value: (r) => at(r.ts) },
        { header: text.monitor, width: 16, value: (r) => r.s.serial },
        { header: text.channel, width: 8, value: (r) => r.s.channel },
        { header: text.value, width: 10, value: (r) => r.v },
        { header: 'Unit', width: 8, value: (r) => r.s.unit },
      ],
      rows,
      stem,
      language,
    );
    return file;
  }
  const window = windowOf(row, now);
  const start = window?.start ?? now;
  const end = window?.end ?? now;
  const temps = temperatureTrips(trip);
  const summary = shipmentSummary(temps, row.tempMin, row.tempMax, start, end);
  const [sender] = await db
    .select({ name: companies.name })
    .from(companies)
    .where(eq(companies.id, row.companyId));
  const [receiverCompany] = row.receiverCompanyId
    ? await db.select({ name: companies.name }).from(companies).where(eq(companies.id, row.receiverCompanyId))
    : [];
  const party = (a: AddressCopy): Array<[string, string]> => [
    [text.contact, `${a.name} · ${a.contact}`],
    [text.phone, a.phone],
    [text.address, [a.region, a.address].filter(Boolean).join(' ')],
  ];
  const signature = row.receiptSignature;
  const sections: PdfSection[] = [
    { kind: 'heading', text: text.consignment },
    {
      kind: 'table',
      columns: [{ header: text.goods, weight: 3 }, { header: text.quantity }, { header: text.batch }],
      rows: row.goods.map((g) => [g.name, g.quantity, g.batch ?? '']),
    },
    {
      kind: 'facts',
      pairs: [
        [text.range, rangeText(row.tempMin, row.tempMax, '°C')],
        ...(row.humidityMin !== null || row.humidityMax !== null
          ? [[text.humidityRange, rangeText(row.humidityMin, row.humidityMax, '%RH')] as [string, string]]
          : []),
        [text.monitor, trip.monitors.map((m) => m.serial).join(', ')],
      ],
    },
    { kind: 'heading', text: text.sender },
    { kind: 'facts', pairs: [[text.senderCompany, sender?.name ?? ''], ...party(row.sender)] },
    { kind: 'heading', text: text.carrier },
    {
      kind: 'facts',
      pairs: [
        [text.carrier, row.carrier || '-'],
        [text.vehicle, row.vehicle || '-'],
      ],
    },
    { kind: 'heading', text: text.receiver },
    {
      kind: 'facts',
      pairs: [
        ...(receiverCompany ? [[text.receiverCompany, receiverCompany.name] as [string, string]] : []),
        ...party(row.receiver),
      ],
    },
    { kind: 'heading', text: text.handover },
    {
      kind: 'facts',
      pairs: [
        [text.plannedDeparture, when(row.plannedDeparture?.getTime())],
        [text.departure, when(row.departedAt?.getTime())],
        [text.plannedArrival, when(row.plannedArrival?.getTime())],
        [text.arrival, when(row.arrivedAt?.getTime())],
        [text.received, when(row.receivedAt?.getTime())],
      ],
    },
    { kind: 'heading', text: text.summary },
    {
      kind: 'facts',
      pairs: [
        [text.min, summary.min === null ? '-' : `${summary.min} °C`],
        [text.max, summary.max === null ? '-' : `${summary.max} °C`],
        [text.mkt, summary.mkt === null ? '-' : `${summary.mkt} °C`],
        [text.minutesOut, String(summary.minutesOutOfRange)],
        [text.excursions, String(summary.excursions)],
        [text.gaps, String(summary.gaps.length)],
        [text.readingCount, String(summary.readings)],
      ],
    },
  ];
  for (const t of temps) {
    sections.push({ kind: 'heading', text: text.chart(t.serial, t.channel) });
    sections.push({
      kind: 'chart',
      height: 150,
      series: thinSeries([...t.points] as Array<[number, number]>, CHART_POINTS),
      low: row.tempMin,
      high: row.tempMax,
      from: start,
      to: end,
      unit: '°C',
      timeZone,
    });
  }
  sections.push({ kind: 'heading', text: text.excursionTable });
  if (summary.excursionList.length === 0) sections.push({ kind: 'paragraph', text: text.none });
  else
    sections.push({
      kind: 'table',
      columns: [
        { header: text.monitor },
        { header: text.channel },
        { header: text.start },
        { header: text.end },
        { header: text.peak },
      ],
      rows: summary.excursionList.map((e) => [
        e.serial,
        String(e.channel),
        at(e.start),
        at(e.end),
        `${e.peak} °C`,
      ]),
    });
  sections.push({ kind: 'heading', text: text.gapTable });
  if (summary.gaps.length === 0) sections.push({ kind: 'paragraph', text: text.none });
  else
    sections.push({
      kind: 'table',
      columns: [
        { header: text.monitor },
        { header: text.channel },
        { header: text.start },
        { header: text.end },
      ],
      rows: summary.gaps.map((g) => [g.serial, String(g.channel), at(g.start), at(g.end)]),
    });
  sections.push({ kind: 'heading', text: text.readingsTable });
  const tableRows = temps.flatMap((t) => {
    const step = Math.max(t.intervalMs, Math.ceil((end - start) / PDF_TABLE_ROWS / 300_000) * 300_000);
    return sampleAtInterval(t.points, start, step).map(([ts, v]) => [
      t.serial,
      String(t.channel),
      at(ts),
      `${v} °C`,
    ]);
  });
  sections.push({
    kind: 'table',
    columns: [
      { header: text.monitor },
      { header: text.channel },
      { header: text.time, weight: 2 },
      { header: text.value },
    ],
    rows: tableRows,
  });
  sections.push({ kind: 'heading', text: text.decision });
  if (!signature || !row.receivedAt) sections.push({ kind: 'paragraph', text: text.pending });
  else {
    const method = text[signature.method];
    sections.push({
      kind: 'facts',
      pairs: [
        [text.decision, row.state === DeliveryState.Received ? text.accepted : text.rejected],
        [text.signedBy, signature.signedBy],
        [text.method, method],
        [text.time, at(signature.signedAt)],
        [text.remarks, row.receiptRemarks || '-'],
      ],
    });
    sections.push({
      kind: 'paragraph',
      text: text.manifestation(signature.signedBy, at(signature.signedAt), method),
    });
    const images = await receiptImages(files.store, row.receiptPhoto, signature.image, text);
    if (images.length > 0)
      sections.push({ kind: 'images', height: 160, images, unprintable: text.unprintable });
  }
  const report: PdfReport = {
    language,
    title: `${text.title} ${row.orderNo}`,
    header: [
      [text.orderNo, row.orderNo],
      [text.state, text.states[row.state] ?? String(row.state)],
      [text.printed, at(now)],
      [text.senderCompany, sender?.name ?? ''],
    ],
    sections,
  };
  const pdf = await renderPdf(report);
  return {
    body: pdf.bytes,
    filename: `${stem}.pdf`,
    contentType: 'application/pdf',
    fingerprint: pdf.fingerprint,
  };
}
