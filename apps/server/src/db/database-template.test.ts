import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { currentStamp, pgliteVersion, startFromTemplate, writeTemplateStamp } from './database-template';

/** A stand-in template: the files a data directory is recognised by, and the stamp. */
function fakeTemplate(stamp = currentStamp()) {
  const dir = mkdtempSync(path.join(tmpdir(), 'cc-template-'));
  mkdirSync(path.join(dir, 'pgdata', 'base'), { recursive: true });
  writeFileSync(path.join(dir, 'pgdata', 'PG_VERSION'), '17\n');
  writeFileSync(path.join(dir, 'pgdata', 'base', 'table'), 'rows');
  writeTemplateStamp(dir, stamp);
  return dir;
}

const newDataDir = () => path.join(mkdtempSync(path.join(tmpdir(), 'cc-data-')), 'pgdata');

describe('a new embedded database from the template', () => {
  it('copies the template into a data directory that does not exist or is empty', () => {
    const template = fakeTemplate();
    for (const createdEmpty of [false, true]) {
      const pgdata = newDataDir();
      if (createdEmpty) mkdirSync(pgdata);
      expect(startFromTemplate(template, pgdata)).toBe(true);
      expect(readFileSync(path.join(pgdata, 'base', 'table'), 'utf8')).toBe('rows');
      // Nothing of the copy in progress is left beside it.
      expect(readdirSync(path.dirname(pgdata))).toEqual(['pgdata']);
    }
  });

  it('never touches a data directory that holds a database or anything else', () => {
    const template = fakeTemplate();
    const existing = newDataDir();
    mkdirSync(existing);
    writeFileSync(path.join(existing, 'PG_VERSION'), '17\n');
    expect(startFromTemplate(template, existing)).toBe(false);
    expect(readdirSync(existing)).toEqual(['PG_VERSION']);

    const other = newDataDir();
    mkdirSync(other);
    writeFileSync(path.join(other, 'notes.txt'), 'mine');
    expect(startFromTemplate(template, other)).toBe(false);
    expect(readdirSync(other)).toEqual(['notes.txt']);
  });

  it('is not used for another PGlite, without a stamp, or when there is none', () => {
    const otherPglite = fakeTemplate({ ...currentStamp(), pglite: `${pgliteVersion()}-other` });
    expect(startFromTemplate(otherPglite, newDataDir())).toBe(false);

    const unstamped = fakeTemplate();
    writeFileSync(path.join(unstamped, 'template.json'), 'not json');
    expect(startFromTemplate(unstamped, newDataDir())).toBe(false);

    expect(startFromTemplate(path.join(tmpdir(), 'cc-no-such-template'), newDataDir())).toBe(false);
    expect(startFromTemplate(undefined, newDataDir())).toBe(false);
  });
});
