import { Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { summarizeTags } from '../permissions';

/** A role's permissions, per module; 'Temporary no permissions' when it holds none (spec section 6). */
export function TagSummary({ tags }: { tags: string[] }) {
  const { t } = useTranslation();
  const summary = summarizeTags(tags);
  if (summary.length === 0) {
    return (
      <Typography.Text type="secondary" data-testid="role-no-permissions">
        {t('org.role.noPermissions')}
      </Typography.Text>
    );
  }
  return (
    <Space size={[4, 4]} wrap data-testid="role-permissions">
      {summary.map(({ module, rights }) => (
        <Tag key={module}>
          {t(`org.module.${module}`, { defaultValue: module })}:{' '}
          {rights
            .map((right) => t(`org.right.${right}`, { defaultValue: right }))
            .join(t('org.listSeparator'))}
        </Tag>
      ))}
    </Space>
  );
}
