import { Button, Card, Flex, Form, Input, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { DepartmentTreeSelect } from '../components/DepartmentTreeSelect';
import { ImageUpload } from '../components/ImageUpload';
import { useAddDepartment, useMemberOptions } from '../queries';
import { organizationNameRule } from '../rules';
import { OrgUrl } from '../urls';

interface Values {
  parentId: string;
  name: string;
  leaderId?: string;
  address?: string;
  imageUrl?: string;
}

/** Adds a department under a parent (`?parentId=` preselects it): name, person in charge, address, image. */
export default function AddSectorPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [form] = Form.useForm<Values>();
  const add = useAddDepartment();
  const members = useMemberOptions();

  const submit = async (values: Values) => {
    try {
      await add.mutateAsync({
        parentId: values.parentId,
        name: values.name.trim(),
        ...(values.leaderId ? { leaderId: values.leaderId } : {}),
        address: values.address?.trim() ?? '',
        imageUrl: values.imageUrl ?? '',
      });
      navigate(OrgUrl.organization);
    } catch {
      // The request wrapper showed the reason; the form keeps what was typed.
    }
  };

  return (
    <div>
      <Typography.Title level={2} data-testid="page-title">
        {t('menu.addSector')}
      </Typography.Title>
      <Card style={{ maxWidth: 640 }}>
        <Form<Values>
          form={form}
          layout="vertical"
          onFinish={submit}
          initialValues={{ parentId: params.get('parentId') ?? undefined, address: '', imageUrl: '' }}
        >
          <Form.Item
            name="parentId"
            label={t('org.field.parent')}
            rules={[{ required: true, message: t('org.rule.parentRequired') }]}
          >
            <DepartmentTreeSelect data-testid="sector-parent" />
          </Form.Item>
          <Form.Item
            name="name"
            label={t('org.field.name')}
            rules={[{ required: true, message: t('org.rule.organizationName') }, organizationNameRule(t)]}
          >
            <Input data-testid="sector-name" />
          </Form.Item>
          <Form.Item name="leaderId" label={t('org.field.leader')}>
            <Select<string>
              allowClear
              showSearch
              optionFilterProp="label"
              loading={members.isPending}
              data-testid="sector-leader"
              options={(members.data ?? []).map((m) => ({ value: m.id, label: m.name }))}
            />
          </Form.Item>
          <Form.Item name="address" label={t('org.field.address')}>
            <Input maxLength={255} data-testid="sector-address" />
          </Form.Item>
          <Form.Item name="imageUrl" label={t('org.field.image')}>
            <ImageUpload />
          </Form.Item>
          <Flex gap="small">
            <Button type="primary" htmlType="submit" loading={add.isPending} data-testid="sector-submit">
              {t('org.save')}
            </Button>
            <Button onClick={() => navigate(OrgUrl.organization)}>{t('org.cancel')}</Button>
          </Flex>
        </Form>
      </Card>
    </div>
  );
}
