import { Select, type SelectProps } from 'antd';
import { useDepartmentGroups } from '../../groups/queries';

/** The departments of the caller's scope, indented by level (as the monitors' batch transfer shows them). */
export function DepartmentSelect(props: Omit<SelectProps<string>, 'options' | 'loading'>) {
  const departments = useDepartmentGroups();
  return (
    <Select<string>
      showSearch
      optionFilterProp="title"
      {...props}
      loading={departments.isLoading}
      options={(departments.data ?? []).map((d) => ({
        value: d.id,
        title: d.name,
        label: `${'\u2003'.repeat(Math.max(0, d.level - 1))}${d.name}`,
      }))}
    />
  );
}

/** A department's name from the same list, for records that carry only ids. */
export function useDepartmentName(): (id: string | null | undefined) => string {
  const departments = useDepartmentGroups();
  return (id) => (id ? (departments.data?.find((d) => d.id === id)?.name ?? '-') : '-');
}
