import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { CreatedOpenApiKey } from '@coldchain/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice, login } from '../../test/factories';

const run = promisify(execFile);
const guide = readFileSync(path.resolve(import.meta.dirname, '../../../../../docs/open-api.md'), 'utf8');

/** The fenced code blocks of docs/open-api.md in one language. */
function examples(language: string): string[] {
  return [...guide.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]!);
}

/**
 * Runs the signing examples of docs/open-api.md, as an integrator would paste them, against a
 * listening server: each must print the first page of the key's devices.
 */
describe('the open API guide’s examples', () => {
  const ctx = useTestApp();
  const env: Record<string, string> = {};
  let serial = '';

  beforeAll(async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as { port: number };
    const company = await buildCompany(ctx.app.db, { services: ['service:openApi'] });
    const admin = { token: await login(ctx.app, company.admin.account), companyId: company.id };
    const device = await buildDevice(ctx.app.db, company.id, { name: 'Docs fridge' });
    serial = device.serial;
    const key = (await call<CreatedOpenApiKey>(ctx.app, '/api/openApi/createKey', { name: 'Docs' }, admin))
      .body.data;
    await call(ctx.app, '/api/openApi/setDevices', { id: key.id, deviceIds: [device.id] }, admin);
    Object.assign(env, {
      BASE_URL: `http://127.0.0.1:${port}`,
      APP_KEY: key.appKey,
      APP_SECRET: key.appSecret,
    });
  });

  const cases: Array<[string, string, (file: string) => [string, string[]]]> = [
    ['bash', 'curl', (code) => ['bash', ['-c', code]]],
    ['js', 'JavaScript', (code) => ['node', ['-e', code]]],
    ['python', 'Python', (code) => ['python3', ['-c', code]]],
  ];
  for (const [fence, name, command] of cases) {
    it(`${name} prints the devices opened to the key`, async () => {
      const [code] = examples(fence);
      expect(code, `a \`\`\`${fence} example in docs/open-api.md`).toBeDefined();
      const [program, args] = command(code!);
      const { stdout } = await run(program, args, { env: { ...process.env, ...env }, timeout: 20_000 });
      const answer = JSON.parse(stdout) as {
        msgCode: number;
        data: { list: { serial: string; name: string }[] };
      };
      expect(answer.msgCode).toBe(200);
      expect(answer.data.list).toEqual([expect.objectContaining({ serial, name: 'Docs fridge' })]);
    });
  }
});
