// Writes public/alarm.wav: a 1-second two-tone beep (8 kHz, 8-bit mono), looped by the console
// for 5 seconds per alarm. Generated here so that no audio file is downloaded.
import { writeFileSync } from 'node:fs';
import path from 'node:path';

const rate = 8000;
const samples = rate;
const data = Buffer.alloc(samples);
for (let i = 0; i < samples; i++) {
  const t = i / rate;
  const on = t % 0.5 < 0.35;
  const freq = t < 0.5 ? 880 : 660;
  data[i] = on ? Math.round(128 + 80 * Math.sin(2 * Math.PI * freq * t)) : 128;
}
const header = Buffer.alloc(44);
header.write('RIFF', 0);
header.writeUInt32LE(36 + data.length, 4);
header.write('WAVE', 8);
header.write('fmt ', 12);
header.writeUInt32LE(16, 16);
header.writeUInt16LE(1, 20);
header.writeUInt16LE(1, 22);
header.writeUInt32LE(rate, 24);
header.writeUInt32LE(rate, 28);
header.writeUInt16LE(1, 32);
header.writeUInt16LE(8, 34);
header.write('data', 36);
header.writeUInt32LE(data.length, 40);
writeFileSync(path.resolve(import.meta.dirname, '../public/alarm.wav'), Buffer.concat([header, data]));
