import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, login } from '../../test/factories';
import { auditLog } from '../audit/audit.table';
import { feedback } from './feedback.table';

const IMG1 = '/files/00000000000000000000000000000001.png';
const IMG2 = '/files/00000000000000000000000000000002.jpg';
const IMG3 = '/files/00000000000000000000000000000003.webp';

describe('feedback', () => {
  const ctx = useTestApp();

  it('stores content with category 7 and source 1 by default', async () => {
    const company = await buildCompany(ctx.app.db);
    const token = await login(ctx.app, company.admin.account);
    const { body } = await call<{ id: string }>(
      ctx.app,
      '/api/user/addFeedback',
      { content: 'The chart is slow' },
      { token },
    );
    expect(body.msgCode).toBe(200);
    expect(body.msgContent).toBe('Thank you for your feedback');
    const [row] = await ctx.app.db
      .select()
      .from(feedback)
      .where(eq(feedback.id, Number(body.data.id)));
    expect(row).toMatchObject({
      content: 'The chart is slow',
      category: 7,
      source: 1,
      companyId: company.id,
    });
    const [entry] = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.companyId, company.id), eq(auditLog.action, 'feedback.add')));
    expect(entry).toMatchObject({ targetId: body.data.id, userId: company.admin.id });
  });

  it('keeps up to 3 uploaded images, sent comma-joined or as a list', async () => {
    const company = await buildCompany(ctx.app.db);
    const token = await login(ctx.app, company.admin.account);
    for (const imgUrl of [`${IMG1},${IMG2},${IMG3}`, [IMG1, IMG2, IMG3]]) {
      const { body } = await call<{ id: string }>(
        ctx.app,
        '/api/user/addFeedback',
        { content: 'See the pictures', category: 2, imgUrl, source: 1 },
        { token },
      );
      const [row] = await ctx.app.db
        .select()
        .from(feedback)
        .where(eq(feedback.id, Number(body.data.id)));
      expect(row).toMatchObject({ category: 2, imgUrl: `${IMG1},${IMG2},${IMG3}` });
    }
  });

  it.each([
    [{ content: '   ' }, 'cn', '内容不能为空'],
    [{}, 'en', 'Content is required'],
    [{ content: 'x', category: 8 }, 'en', 'Category must be at most 7'],
    [{ content: 'x', category: 0 }, 'cn', '类别不能小于 1'],
    [{ content: 'x', imgUrl: 'a.png,b.png,c.png,d.png' }, 'en', 'At most 3 images can be attached'],
    [{ content: 'x', imgUrl: [IMG1, IMG2, IMG3, IMG1] }, 'cn', '最多上传 3 张图片'],
    [
      { content: 'x', imgUrl: 'https://evil.example.com/x.png' },
      'en',
      'Images must be a file uploaded to this server',
    ],
  ] as const)('rejects %j (%s)', async (input, language, message) => {
    const company = await buildCompany(ctx.app.db);
    const token = await login(ctx.app, company.admin.account);
    const { body } = await call(ctx.app, '/api/user/addFeedback', input, { token, language });
    expect(body).toEqual({ msgCode: 500, msgContent: message, data: null });
  });
});
