import { Checkbox, Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/DataTable';
import { PERMISSION_MODULES, toggleTag } from '../permissions';

interface Props {
  value?: string[];
  onChange?: (tags: string[]) => void;
  /** What a role of this department may hold (`/api/role/assignableTags`). */
  assignable: string[];
}

/**
 * Permissions per module with a checkbox per right (view, edit, ...). Only modules with an
 * assignable right are listed, and a right that may not be granted is disabled, so nobody can
 * hand out more than their department allows.
 */
export function PermissionEditor({ value = [], onChange, assignable }: Props) {
  const { t } = useTranslation();
  const modules = PERMISSION_MODULES.filter(({ module, rights }) =>
    rights.some((right) => assignable.includes(`${module}:${right}`)),
  );
  if (modules.length === 0) return <Empty description={t('org.role.nothingAssignable')} />;
  return (
    <DataTable
      size="small"
      rowKey="module"
      pagination={false}
      dataSource={modules}
      data-testid="permission-editor"
      columns={[
        {
          title: t('org.role.module'),
          dataIndex: 'module',
          key: 'module',
          render: (module: string) => t(`org.module.${module}`, { defaultValue: module }),
        },
        {
          title: t('org.role.rights'),
          key: 'rights',
          render: (_, { module, rights }) =>
            rights.map((right) => {
              const tag = `${module}:${right}`;
              const allowed = assignable.includes(tag);
              return (
                <Checkbox
                  key={tag}
                  checked={value.includes(tag)}
                  disabled={!allowed}
                  data-testid={`perm-${tag}`}
                  onChange={(e) => onChange?.(toggleTag(value, tag, e.target.checked, assignable))}
                >
                  {t(`org.right.${right}`, { defaultValue: right })}
                </Checkbox>
              );
            }),
        },
      ]}
    />
  );
}
