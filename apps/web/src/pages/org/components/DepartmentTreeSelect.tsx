import { TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDepartmentTree } from '../queries';
import { toTreeOptions } from '../tree';

interface Props {
  value?: string;
  onChange?: (value: string | undefined) => void;
  allowClear?: boolean;
  placeholder?: string;
  disabled?: boolean;
  /** Departments that may not be picked (a department cannot move under itself). */
  excludeId?: string;
  'data-testid'?: string;
  /** The name of a picker used as a filter, without a form label of its own. */
  'aria-label'?: string;
  style?: React.CSSProperties;
}

/** Picks a department of the caller's scope from the tree call; works inside antd forms. */
export function DepartmentTreeSelect({ excludeId, placeholder, ...props }: Props) {
  const { t } = useTranslation();
  const tree = useDepartmentTree();
  const options = toTreeOptions(tree.data ?? []);
  const mark = (nodes: typeof options): typeof options =>
    nodes.map((n) => ({
      ...n,
      disabled: n.value === excludeId,
      ...(n.children ? { children: mark(n.children) } : {}),
    }));
  return (
    <TreeSelect
      treeData={excludeId ? mark(options) : options}
      treeDefaultExpandAll
      showSearch
      treeNodeFilterProp="title"
      loading={tree.isPending}
      placeholder={placeholder ?? t('org.field.department')}
      style={{ minWidth: 200, ...props.style }}
      {...props}
    />
  );
}
