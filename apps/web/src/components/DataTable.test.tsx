import { readFileSync } from 'node:fs';
import path from 'node:path';
import { render, screen, waitFor } from '@testing-library/react';
import type { TableColumnsType } from 'antd';
import { describe, expect, it } from 'vitest';
import { AppProviders, createQueryClient } from '../App';
import { DataTable, pinColumns } from './DataTable';

interface Row {
  id: string;
  name: string;
  state: string;
}

const COLUMNS: TableColumnsType<Row> = [
  { key: 'actions', title: 'Actions', render: () => <button type="button">Edit</button> },
  { key: 'state', title: 'State', dataIndex: 'state' },
  { key: 'name', title: 'Name', dataIndex: 'name' },
];

describe('DataTable', () => {
  it('moves key columns then actions to the right edge, pinned only when asked', () => {
    const pinned = pinColumns(COLUMNS, ['state'], true);
    expect(pinned.map((c) => [c.key, c.fixed])).toEqual([
      ['name', undefined],
      ['state', 'right'],
      ['actions', 'right'],
    ]);
    expect(pinColumns(COLUMNS, ['state'], false).map((c) => c.fixed)).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("makes antd's hidden measure row, select-all checkbox included, unreachable by keyboard", async () => {
    render(
      <AppProviders queryClient={createQueryClient()}>
        <DataTable<Row>
          rowKey="id"
          columns={COLUMNS}
          keyColumns={['state']}
          rowSelection={{}}
          dataSource={[{ id: '1', name: 'Ward fridge', state: 'Normal' }]}
        />
      </AppProviders>,
    );
    await screen.findByText('Ward fridge');
    const measure = document.querySelector('.ant-table-measure-row');
    expect(measure).not.toBeNull();
    await waitFor(() => expect(measure?.hasAttribute('inert')).toBe(true));
  });

  /*
   * The seam between two right-pinned cells is covered by a rule of layout/layout.css keyed on
   * antd's class names: jsdom draws nothing, but it can tell whether that rule still reaches the
   * cells antd renders (a renamed class would let scrolled text show between them again).
   */
  it('covers the seam between pinned cells: the layout rule reaches every pinned cell after the first', async () => {
    const layoutCss = readFileSync(path.join(import.meta.dirname, '../layout/layout.css'), 'utf8');
    const seamRule = /([^{}/]*cell-fix-end[^{}]*)::after\s*\{[^}]*background:\s*inherit/.exec(layoutCss);
    expect(seamRule).not.toBeNull();
    const selector = seamRule?.[1]?.trim().replace(/^body\s+/, '') ?? '';
    render(
      <AppProviders queryClient={createQueryClient()}>
        <DataTable<Row>
          rowKey="id"
          columns={COLUMNS}
          keyColumns={['state']}
          dataSource={[{ id: '1', name: 'Ward fridge', state: 'Normal' }]}
        />
      </AppProviders>,
    );
    const row = (await screen.findByText('Ward fridge')).closest('tr');
    const cells = [...(row?.querySelectorAll('td') ?? [])];
    const [name, state, actions] = cells;
    expect(cells).toHaveLength(3);
    expect(actions?.matches(selector)).toBe(true);
    // The first pinned cell's ::after is antd's shadow over the scrolled columns: left alone.
    expect(state?.matches(selector)).toBe(false);
    expect(state?.className).toContain('ant-table-cell-fix-end');
    expect(name?.matches(selector)).toBe(false);
    const header = [...document.querySelectorAll('thead th')];
    expect(header.at(-1)?.matches(selector)).toBe(true);
  });
});
