import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { describe, expect, it } from 'vitest';

const migrationsFolder = path.resolve(import.meta.dirname, '../../../drizzle');
const SIGNATURE_MIGRATION = '0020_signature_policy';

describe('the signature policy migration', () => {
  it('keeps signing on for a company any member had it on, and each member’s export flag', async () => {
    // The migrations up to the one before the signature policy, in a folder of their own.
    const before = mkdtempSync(path.join(tmpdir(), 'cc-migrations-'));
    const client = new PGlite();
    try {
      cpSync(migrationsFolder, before, { recursive: true });
      const journalPath = path.join(before, 'meta', '_journal.json');
      const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
      const cut = journal.entries.findIndex((e) => e.tag === SIGNATURE_MIGRATION);
      expect(cut).toBeGreaterThan(0);
      writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, cut) }));
      const db = drizzle(client);
      await migrate(db, { migrationsFolder: before });

      const id = async (sql: string, params: unknown[]) =>
        Number((await client.query<{ id: number }>(sql, params)).rows[0]!.id);
      const user = (account: string, signCheck: boolean, exportExcel: boolean) =>
        id(
          `insert into users (account, password_hash, name, sign_check, export_excel)
           values ($1, 'x', $1, $2, $3) returning id`,
          [account, signCheck, exportExcel],
        );
      const company = (name: string) => id('insert into companies (name) values ($1) returning id', [name]);
      const signing = await company('Signing');
      const plain = await company('Plain');
      const signer = await user('signer', true, true);
      const noExport = await user('no-export', false, false);
      for (const [c, u] of [
        [signing, signer],
        [signing, noExport],
        [plain, noExport],
      ]) {
        await client.query('insert into company_members (company_id, user_id) values ($1, $2)', [c, u]);
      }

      await migrate(db, { migrationsFolder });
      const { rows: companies } = await client.query<{ id: number; sign_check: boolean }>(
        'select id, sign_check from companies order by id',
      );
      expect(companies.map((c) => [Number(c.id), c.sign_check])).toEqual([
        [signing, true],
        [plain, false],
      ]);
      const { rows: members } = await client.query<{
        company_id: number;
        user_id: number;
        export_excel: boolean;
      }>('select company_id, user_id, export_excel from company_members order by company_id, user_id');
      expect(members.map((m) => [Number(m.company_id), Number(m.user_id), m.export_excel])).toEqual([
        [signing, signer, true],
        [signing, noExport, false],
        [plain, noExport, false],
      ]);
      // The per-user columns are gone: one place decides.
      const { rows: columns } = await client.query<{ column_name: string }>(
        `select column_name from information_schema.columns
         where table_name = 'users' and column_name in ('sign_check', 'export_excel')`,
      );
      expect(columns).toEqual([]);
    } finally {
      await client.close();
      rmSync(before, { recursive: true, force: true });
    }
    // Every migration from scratch, in two steps: slow on a busy machine.
  }, 120_000);
});
