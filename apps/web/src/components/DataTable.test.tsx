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
});
