import type { DepartmentDetail } from '@coldchain/contract';
import { Descriptions, Image } from 'antd';
import { useTranslation } from 'react-i18next';

/** Name, code, level, parent, person in charge, address, counts and image of one department. */
export function DepartmentInfo({ department }: { department: DepartmentDetail }) {
  const { t } = useTranslation();
  return (
    <Descriptions
      bordered
      size="small"
      column={{ xs: 1, md: 2 }}
      data-testid="department-info"
      items={[
        { key: 'name', label: t('org.field.name'), children: department.name },
        { key: 'code', label: t('org.field.code'), children: department.code },
        { key: 'company', label: t('org.field.company'), children: department.companyName || '-' },
        { key: 'parent', label: t('org.field.parent'), children: department.parentName || '-' },
        { key: 'level', label: t('org.field.level'), children: department.level },
        { key: 'leader', label: t('org.field.leader'), children: department.leaderName || '-' },
        { key: 'members', label: t('org.field.members'), children: department.memberCount },
        { key: 'devices', label: t('org.field.devices'), children: department.deviceCount },
        {
          key: 'devicesInSubtree',
          label: t('org.field.devicesInSubtree'),
          children: department.subtreeDeviceCount,
        },
        { key: 'address', label: t('org.field.address'), children: department.address || '-' },
        {
          key: 'image',
          label: t('org.field.image'),
          children: department.imageUrl ? <Image src={department.imageUrl} width={120} /> : '-',
        },
      ]}
    />
  );
}
