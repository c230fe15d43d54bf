import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, login } from '../../test/factories';
import { feedback } from './feedback.table';

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
  });

  it.each([
    [{ content: '   ' }, 'cn', '内容不能为空'],
    [{}, 'en', 'Content is required'],
    [{ content: 'x', category: 8 }, 'en', 'Category must be at most 7'],
    [{ content: 'x', category: 0 }, 'cn', '类别不能小于 1'],
    [{ content: 'x', imgUrl: 'a.png,b.png,c.png,d.png' }, 'en', 'At most 3 images can be attached'],
  ] as const)('rejects %j (%s)', async (input, language, message) => {
    const company = await buildCompany(ctx.app.db);
    const token = await login(ctx.app, company.admin.account);
    const { body } = await call(ctx.app, '/api/user/addFeedback', input, { token, language });
    expect(body).toEqual({ msgCode: 500, msgContent: message, data: null });
  });
});
