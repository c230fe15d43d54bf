import type { DepartmentNode } from '@coldchain/contract';

/** Helpers over the department tree of `/api/user/userOrganizeList`. */

export function flattenTree(nodes: DepartmentNode[]): DepartmentNode[] {
  return nodes.flatMap((node) => [node, ...flattenTree(node.children ?? [])]);
}

export function findDepartment(
  nodes: DepartmentNode[],
  id: string | null | undefined,
): DepartmentNode | undefined {
  if (!id) return undefined;
  return flattenTree(nodes).find((node) => node.id === id);
}

export interface DepartmentOption {
  value: string;
  title: string;
  children?: DepartmentOption[];
}

/** TreeSelect data; leaves get no `children` so no expand arrow is drawn. */
export function toTreeOptions(nodes: DepartmentNode[]): DepartmentOption[] {
  return nodes.map((node) => ({
    value: node.id,
    title: node.name,
    ...(node.children?.length ? { children: toTreeOptions(node.children) } : {}),
  }));
}

export type DepartmentRow = Omit<DepartmentNode, 'children'> & { children?: DepartmentRow[] };

/** Table tree rows: leaves without `children` so antd draws no expand button for them. */
export function toRows(nodes: DepartmentNode[]): DepartmentRow[] {
  return nodes.map(({ children, ...node }) => ({
    ...node,
    ...(children?.length ? { children: toRows(children) } : {}),
  }));
}
