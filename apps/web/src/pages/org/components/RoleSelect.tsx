import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { roleName } from '../../../components/labels';
import { useRoles } from '../queries';

interface Props {
  departmentId: string | null | undefined;
  value?: string;
  onChange?: (value: string | undefined) => void;
  allowClear?: boolean;
  'data-testid'?: string;
  /** The name of a picker used as a filter, without a form label of its own. */
  'aria-label'?: string;
  style?: React.CSSProperties;
}

/** The roles of one department (roles are defined per department, spec section 6). */
export function RoleSelect({ departmentId, ...props }: Props) {
  const { t } = useTranslation();
  const roles = useRoles(departmentId);
  return (
    <Select<string>
      disabled={!departmentId}
      loading={!!departmentId && roles.isPending}
      placeholder={t('org.field.role')}
      options={(roles.data?.list ?? []).map((r) => ({ value: r.id, label: roleName(t, r.name) }))}
      style={{ minWidth: 160, ...props.style }}
      {...props}
    />
  );
}
