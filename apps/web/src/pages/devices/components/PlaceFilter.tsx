import type { DepartmentGroups, GroupNode } from '@coldchain/contract';
import { TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDepartmentGroups } from '../../groups/queries';

/** Where to look: one department (`d:<id>`) or one group (`g:<id>`); null for everywhere. */
export type Place = { departmentId: string } | { groupId: string } | null;

interface TreeNode {
  value: string;
  title: string;
  children: TreeNode[];
}

function groupNodes(groups: GroupNode[]): TreeNode[] {
  return groups.map((g) => ({ value: `g:${g.id}`, title: g.name, children: groupNodes(g.children) }));
}

/** Departments as a tree by `pid`, each with its groups first. */
function departmentNodes(departments: DepartmentGroups[], pid: string): TreeNode[] {
  return departments
    .filter((d) => d.pid === pid || (pid === '0' && !departments.some((p) => p.id === d.pid)))
    .map((d) => ({
      value: `d:${d.id}`,
      title: d.name,
      children: [...groupNodes(d.groups), ...departmentNodes(departments, d.id)],
    }));
}

/** Filters the monitor list by department or group (the list's `departmentId` / `groupId`). */
export function PlaceFilter({ onChange }: { onChange: (place: Place) => void }) {
  const { t } = useTranslation();
  const departments = useDepartmentGroups();
  return (
    <TreeSelect
      allowClear
      treeDefaultExpandAll
      style={{ minWidth: 220 }}
      placeholder={t('devices.placeFilter')}
      aria-label={t('devices.placeFilter')}
      treeData={departmentNodes(departments.data ?? [], '0')}
      onChange={(value?: string) => {
        if (!value) onChange(null);
        else if (value.startsWith('g:')) onChange({ groupId: value.slice(2) });
        else onChange({ departmentId: value.slice(2) });
      }}
      data-testid="device-place-filter"
    />
  );
}
