import { formatInstant } from '../audit/export-file';

/**
 * A line chart drawn with pdfkit's own vector paths (no chart library): a framed plot, five
 * value ticks, time ticks in the report's zone, the series, and the limits as dashed red lines.
 * The series is printed as given: callers thin long series first (`thinSeries`), so what is
 * drawn is what the fingerprint hashes.
 */
export interface LineChart {
  height: number;
  /** [epoch ms, value], in time order. */
  series: Array<[number, number]>;
  /** Allowed range, drawn as dashed lines; null when none. */
  low: number | null;
  high: number | null;
  /** Period shown on the time axis, even where there are no readings. */
  from: number;
  to: number;
  unit: string;
  timeZone: string;
}

interface Box {
  x: number;
  y: number;
  width: number;
}

const AXIS_LEFT = 42;
const AXIS_BOTTOM = 18;

/** A step of 1, 2 or 5 times a power of ten that cuts `span` into about `count` parts. */
function niceStep(span: number, count: number): number {
  const raw = span / count || 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  const unit = raw / power;
  return (unit <= 1 ? 1 : unit <= 2 ? 2 : unit <= 5 ? 5 : 10) * power;
}

/**
 * Keeps at most `maxPoints` points: the series is cut into buckets and each keeps its lowest and
 * highest reading in time order, so no excursion disappears from the chart.
 */
export function thinSeries(series: Array<[number, number]>, maxPoints: number): Array<[number, number]> {
  if (series.length <= maxPoints) return series;
  const buckets = Math.max(1, Math.floor(maxPoints / 2));
  const size = series.length / buckets;
  const out: Array<[number, number]> = [];
  for (let b = 0; b < buckets; b++) {
    const from = Math.floor(b * size);
    const to = Math.min(series.length, Math.floor((b + 1) * size));
    let lo = from;
    let hi = from;
    for (let i = from; i < to; i++) {
      if (series[i]![1] < series[lo]![1]) lo = i;
      if (series[i]![1] > series[hi]![1]) hi = i;
    }
    if (lo === hi) out.push(series[lo]!);
    else if (lo < hi) out.push(series[lo]!, series[hi]!);
    else out.push(series[hi]!, series[lo]!);
  }
  return out;
}

export function drawLineChart(doc: PDFKit.PDFDocument, box: Box, chart: LineChart): void {
  const plot = {
    x: box.x + AXIS_LEFT,
    y: box.y + 4,
    width: box.width - AXIS_LEFT - 4,
    height: chart.height - AXIS_BOTTOM - 4,
  };
  const values = chart.series.map(([, v]) => v);
  for (const limit of [chart.low, chart.high]) if (limit !== null) values.push(limit);
  let min = values.length ? Math.min(...values) : 0;
  let max = values.length ? Math.max(...values) : 1;
  if (max - min < 1e-9) {
    min -= 1;
    max += 1;
  }
  const step = niceStep(max - min, 5);
  min = Math.floor(min / step) * step;
  max = Math.ceil(max / step) * step;
  const span = Math.max(1, chart.to - chart.from);
  const xOf = (ms: number) => plot.x + ((ms - chart.from) / span) * plot.width;
  const yOf = (v: number) => plot.y + plot.height - ((v - min) / (max - min)) * plot.height;

  doc.save();
  doc.lineWidth(0.3).strokeColor('#ccc');
  doc.font('regular').fontSize(6.5).fillColor('#444');
  const digits = step < 1 ? Math.min(3, Math.ceil(-Math.log10(step))) : 0;
  for (let v = min; v <= max + step / 2; v += step) {
    const y = yOf(v);
    doc
      .moveTo(plot.x, y)
      .lineTo(plot.x + plot.width, y)
      .stroke();
    doc.text(v.toFixed(digits), box.x, y - 3, { width: AXIS_LEFT - 4, align: 'right', lineBreak: false });
  }
  for (let i = 0; i <= 4; i++) {
    const ms = chart.from + (span * i) / 4;
    const x = xOf(ms);
    doc
      .moveTo(x, plot.y)
      .lineTo(x, plot.y + plot.height)
      .stroke();
    const label = formatInstant(ms, chart.timeZone).slice(0, 16);
    const align = i === 0 ? 'left' : i === 4 ? 'right' : 'center';
    const left = i === 0 ? x : i === 4 ? x - 80 : x - 40;
    doc.text(label, left, plot.y + plot.height + 4, { width: 80, align, lineBreak: false });
  }
  doc.text(chart.unit, box.x, plot.y - 2, { width: AXIS_LEFT - 4, align: 'right', lineBreak: false });
  doc.rect(plot.x, plot.y, plot.width, plot.height).lineWidth(0.6).strokeColor('#666').stroke();

  for (const limit of [chart.low, chart.high]) {
    if (limit === null) continue;
    doc
      .moveTo(plot.x, yOf(limit))
      .lineTo(plot.x + plot.width, yOf(limit))
      .dash(3, { space: 2 })
      .lineWidth(0.7)
      .strokeColor('#d32f2f')
      .stroke()
      .undash();
  }
  if (chart.series.length > 0) {
    const [first, ...rest] = chart.series;
    doc.moveTo(xOf(first![0]), yOf(first![1]));
    for (const [ms, v] of rest) doc.lineTo(xOf(ms), yOf(v));
    doc.lineWidth(0.8).strokeColor('#1565c0').stroke();
  }
  doc.restore();
}
