import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort, startServerProcess } from '../../test/server-process';
import { parseInventoryCsv } from './inventory-csv';

const admin = path.resolve(import.meta.dirname, '../../admin.ts');

function runAdmin(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', admin, ...args], {
      cwd: path.resolve(import.meta.dirname, '../../..'),
      env: { ...process.env, ...env },
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('inventory CSV', () => {
  it('reads loggers with their channel layout and ranges', () => {
    const { items, problems } = parseInventoryCsv(
      'serial,model,version,channels\nsim2001,CC-TH2,standard,temperature:°C:-40:85|humidity:%RH:0:100\n\nSIM2002,CC-T1,basic,temperature:°C:-200:200\n',
    );
    expect(problems).toEqual([]);
    expect(items).toEqual([
      {
        serial: 'SIM2001',
        model: 'CC-TH2',
        version: 'standard',
        channels: [
          { ch: 1, type: 'temperature', unit: '°C', min: -40, max: 85 },
          { ch: 2, type: 'humidity', unit: '%RH', min: 0, max: 100 },
        ],
      },
      {
        serial: 'SIM2002',
        model: 'CC-T1',
        version: 'basic',
        channels: [{ ch: 1, type: 'temperature', unit: '°C', min: -200, max: 200 }],
      },
    ]);
  });

  it('names every bad line and why', () => {
    const { problems } = parseInventoryCsv(
      [
        'serial,model,version,channels',
        'SER1,M,basic,temperature:°C:-40:85',
        'SER2,M,gold,temperature:°C:-40:85',
        'SER3,M,basic,temperature:°C:85:-40',
        'SER4,M,basic',
        'S5,M,basic,temperature:°C:0:1',
        'SIM9,M,basic,temperature:°C:0:1',
        'sim9,M,basic,temperature:°C:0:1',
      ].join('\n'),
    );
    expect(problems.map((p) => p.line)).toEqual([3, 4, 5, 6, 8]);
    expect(problems[0]!.reason).toContain('version must be one of basic, standard, elite, premium');
    expect(problems[1]!.reason).toContain('min below max');
    expect(problems[2]!.reason).toBe('expected 4 columns');
    expect(problems[3]!.reason).toContain('serial "S5" must be 3-40');
    expect(problems[4]!.reason).toBe('serial SIM9 appears twice');
    expect(parseInventoryCsv('serial;model\n').problems[0]!.reason).toContain('first line');
  });
});

describe('npm run admin -- inventory import', () => {
  // Up to 3 minutes: it starts the admin command (under tsx) and the server as processes, each a
  // cold start, which took over 90 s together on a slow machine running the suites side by side.
  it('imports into the embedded database, skips serials already there, and refuses while the server runs', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cc-admin-'));
    const file = path.join(dataDir, 'stock.csv');
    writeFileSync(
      file,
      'serial,model,version,channels\nSIM3001,CC-T1,basic,temperature:°C:-40:85\nSIM3002,CC-T1,basic,temperature:°C:-40:85\n',
    );
    const first = await runAdmin(['inventory', 'import', file], { DATA_DIR: dataDir });
    expect(first.output).toContain('2 serial(s) added to the inventory, 0 already there.');
    expect(first.code).toBe(0);
    const again = await runAdmin(['inventory', 'import', file], { DATA_DIR: dataDir });
    expect(again.output).toContain('0 serial(s) added to the inventory, 2 already there.');

    const server = await startServerProcess({
      DATA_DIR: dataDir,
      DEMO: '0',
      PORT: String(await freePort()),
      MQTT_PORT: String(await freePort()),
    });
    try {
      const locked = await runAdmin(['inventory', 'import', file], { DATA_DIR: dataDir });
      expect(locked.code).toBe(1);
      expect(locked.output).toContain(`The embedded database in ${dataDir} is in use by the server`);
      expect(locked.output).toContain('set DATA_DIR to another folder');
    } finally {
      server.child.kill('SIGTERM');
      await new Promise((r) => server.child.once('exit', r));
    }
    const usage = await runAdmin(['inventory'], { DATA_DIR: dataDir });
    expect(usage.code).toBe(2);
    expect(usage.output).toContain('Usage: npm run admin -- inventory import <file.csv>');
  }, 180_000);
});
