import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * A place in the code whose first three million objects are kept (as a burst's are) and whose
 * next two hundred thousand die at once. Prints how far the old generation grew meanwhile (MB):
 * with pretenuring, those short-lived objects are made there. The kept ones stay kept, so a
 * collection meanwhile cannot make the growth look smaller than it was.
 */
const PROBE = `
import v8 from 'node:v8';
const oldSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space').space_used_size;
function make(i) { return { a: i, b: i + 1, c: null }; }
const keep = [];
for (let i = 0; i < 3e6; i++) keep.push(make(i));
// Young collections (other, short-lived objects) move the last kept ones to the old generation first.
let junk;
for (let i = 0; i < 4e6; i++) junk = [i, i];
const before = oldSpace();
let sink;
for (let i = 0; i < 2e5; i++) sink = make(i);
console.log(((oldSpace() - before) / 1e6).toFixed(1), keep.length, junk.length, sink.a);
`;

function oldSpaceGrowthMb(preload: string[]): number {
  const output = execFileSync(process.execPath, [...preload, '--input-type=module', '-e', PROBE], {
    encoding: 'utf8',
  });
  return Number(output.trim().split(' ')[0]);
}

describe("the server's V8 settings", () => {
  it('keeps short-lived objects young after a burst of long-lived ones from the same place', () => {
    // Without the settings the probe sees its objects made old: the probe can tell.
    expect(oldSpaceGrowthMb([])).toBeGreaterThan(4);
    const flags = path.join(import.meta.dirname, 'v8-flags.ts');
    expect(oldSpaceGrowthMb(['--import', 'tsx', '--import', flags])).toBeLessThan(1);
  });
});
