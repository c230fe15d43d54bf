import type { FeedbackView, Page } from '@coldchain/contract';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { addMember, buildCompany, buildUser, login } from '../../test/factories';

const IMG1 = '/files/00000000000000000000000000000001.png';
const IMG2 = '/files/00000000000000000000000000000002.jpg';

describe('my feedback', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 10_000 });

  it("lists the caller's own feedback, newest first, paged, with images and the company it was sent in", async () => {
    const company = await buildCompany(ctx.app.db, { name: 'Fridge Co' });
    const token = await login(ctx.app, company.admin.account);
    const colleague = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, company.id, colleague.id, true);
    const colleagueToken = await login(ctx.app, colleague.account);
    const send = (content: string, extra: Record<string, unknown> = {}, as = token) =>
      call(ctx.app, '/api/user/addFeedback', { content, ...extra }, { token: as });
    await send('First: the chart is slow');
    await send('Second: see the screenshots', { category: 2, imgUrl: `${IMG1},${IMG2}` });
    await send('Someone else’s feedback', {}, colleagueToken);

    const page = async (body: Record<string, unknown>, as = token) =>
      (await call<Page<FeedbackView>>(ctx.app, '/api/user/pageFeedback', body, { token: as })).body;
    const first = await page({ pageNum: 1, pageSize: 1 });
    expect(first.data.total).toBe(2);
    expect(first.data.list).toEqual([
      {
        id: expect.any(String),
        content: 'Second: see the screenshots',
        category: 2,
        images: [IMG1, IMG2],
        createTime: expect.any(Number),
        companyName: 'Fridge Co',
      },
    ]);
    const second = await page({ pageNum: 2, pageSize: 1 });
    expect(second.data.list.map((f) => [f.content, f.category, f.images])).toEqual([
      ['First: the chart is slow', 7, []],
    ]);
    expect((await page({}, colleagueToken)).data.list.map((f) => f.content)).toEqual([
      'Someone else’s feedback',
    ]);

    // A person with no company yet sees theirs too; nobody else's.
    const newcomer = await buildUser(ctx.app.db);
    const newcomerToken = await login(ctx.app, newcomer.account);
    expect((await page({}, newcomerToken)).data).toEqual({ list: [], total: 0, pageNum: 1, pageSize: 10 });
  });

  it('names a bad paging field in the caller’s language', async () => {
    const company = await buildCompany(ctx.app.db);
    const token = await login(ctx.app, company.admin.account);
    const { body } = await call(ctx.app, '/api/user/pageFeedback', { pageSize: 500 }, { token });
    expect(body.msgCode).toBe(500);
    expect(body.msgContent).toMatch(/^Page size .*100/);
  });
});
