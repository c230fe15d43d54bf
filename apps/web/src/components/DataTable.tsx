import { Table, type TableColumnsType, type TableProps, type TableRef } from 'antd';
import { useEffect, useRef } from 'react';
import { useDeviceType } from '../layout/useDeviceType';

/** Column keys pinned to the right edge by default: what a row offers is never scrolled away. */
const PINNED_RIGHT = new Set(['actions']);

type Column<T> = TableColumnsType<T>[number];

/**
 * Pins the columns named in `right` (and any `actions` column) to the right edge, in that order
 * after the others, so the state and actions of a row stay in view on a laptop while the rest of
 * a wide table scrolls sideways. On a phone nothing is pinned: two sticky columns would leave no
 * room for the others, and the whole table scrolls instead.
 */
export function pinColumns<T>(columns: TableColumnsType<T>, right: readonly string[], pin: boolean) {
  const pinned = new Set([...right, ...PINNED_RIGHT]);
  const keyOf = (c: Column<T>) => String(c.key ?? '');
  const rest = columns.filter((c) => !pinned.has(keyOf(c)));
  const edge = columns
    .filter((c) => pinned.has(keyOf(c)))
    .sort((a, b) => order(right, keyOf(a)) - order(right, keyOf(b)));
  return [...rest, ...edge.map((c) => (pin ? { ...c, fixed: 'right' as const } : c))];
}

/** Right-pinned columns keep the order `right` gives them; `actions` goes last. */
function order(right: readonly string[], key: string): number {
  const at = right.indexOf(key);
  return at === -1 ? right.length : at;
}

export interface DataTableProps<T> extends TableProps<T> {
  columns: TableColumnsType<T>;
  /** Key columns that must stay visible (a state, a result), pinned right beside `actions`. */
  keyColumns?: readonly string[];
}

/**
 * The console's list table: it scrolls sideways inside its card instead of widening the page,
 * and keeps its key columns and row actions in view (issue 20: at 1366 px the alarm list hid its
 * state and the monitor list its actions). Every list screen uses it, so the rule holds on each.
 */
export function DataTable<T extends object>({
  columns,
  keyColumns = [],
  scroll,
  ...props
}: DataTableProps<T>) {
  const mobile = useDeviceType() === 'mobile';
  const table = useRef<TableRef>(null);
  // After every render (new rows, new columns) and on resize: the DOM antd drew is re-checked.
  useEffect(() => {
    const root = table.current?.nativeElement;
    if (!root) return;
    reachableByKeyboard(root);
    const resized = new ResizeObserver(() => reachableByKeyboard(root));
    resized.observe(root);
    return () => resized.disconnect();
  });
  return (
    <Table<T>
      {...props}
      ref={table}
      columns={pinColumns(columns, keyColumns, !mobile)}
      scroll={{ x: 'max-content', ...scroll }}
    />
  );
}

/**
 * What antd's table leaves out of reach of a keyboard (issue 20, axe-core):
 * - a region that scrolls sideways and holds nothing focusable cannot be scrolled without a
 *   mouse: it becomes a tab stop, and only while it overflows;
 * - the hidden row antd measures column widths with repeats the headers, select-all checkbox
 *   included, where a tab would land on an invisible control: it is made inert.
 */
function reachableByKeyboard(root: HTMLElement) {
  for (const row of root.querySelectorAll('.ant-table-measure-row')) row.setAttribute('inert', '');
  for (const region of root.querySelectorAll<HTMLElement>('.ant-table-content, .ant-table-body')) {
    const overflows = region.scrollWidth > region.clientWidth + 1;
    if (overflows && !region.hasAttribute('tabindex')) region.tabIndex = 0;
    if (!overflows && region.getAttribute('tabindex') === '0') region.removeAttribute('tabindex');
  }
}
