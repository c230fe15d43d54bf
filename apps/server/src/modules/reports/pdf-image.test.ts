import { describe, expect, it } from 'vitest';
import { solidPng } from '../../test/png';
import { isPrintableImage } from './pdf-image';

/** An 8-bit RGBA PNG of grey. */
const png = (width: number, height: number, options: { filter?: number; interlace?: number } = {}) =>
  solidPng(width, height, [0x80, 0x80, 0x80, 0x80], options);

describe('pictures the PDF writer may hand to pdfkit', () => {
  it('takes a whole PNG and anything that starts as a JPEG (pdfkit reads those at once)', () => {
    expect(isPrintableImage(png(12, 7))).toBe(true);
    expect(isPrintableImage(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toBe(true);
  });

  it('refuses a PNG pdfkit would fail on later, where no handler catches it', () => {
    const whole = png(12, 7);
    expect(isPrintableImage(whole.subarray(0, whole.length - 12)), 'no IEND').toBe(false);
    const garbled = Buffer.from(whole);
    garbled.fill(0x41, 41, garbled.length - 12);
    expect(isPrintableImage(garbled), 'rows not a zlib stream').toBe(false);
    expect(isPrintableImage(png(12, 7, { filter: 9 })), 'unknown row filter').toBe(false);
    expect(isPrintableImage(png(12, 7, { interlace: 1 })), 'interlaced').toBe(false);
    expect(isPrintableImage(png(5000, 1)), 'wider than the limit').toBe(false);
    expect(isPrintableImage(Buffer.from('GIF89a................................')), 'not a picture').toBe(
      false,
    );
  });
});
