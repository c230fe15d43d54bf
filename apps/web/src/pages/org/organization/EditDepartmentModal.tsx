import type { DepartmentNode } from '@coldchain/contract';
import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { ImageUpload } from '../components/ImageUpload';
import { useEditDepartment } from '../queries';
import { organizationNameRule } from '../rules';

interface Values {
  name: string;
  address: string;
  imageUrl: string;
}

/** Edits a department's name, address and image (`/api/userOrganize/editDepartment`). */
export function EditDepartmentModal({
  department,
  onClose,
}: {
  department: DepartmentNode | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const edit = useEditDepartment();

  const submit = async (values: Values) => {
    if (!department) return;
    try {
      await edit.mutateAsync({
        id: department.id,
        name: values.name.trim(),
        address: values.address?.trim() ?? '',
        imageUrl: values.imageUrl ?? '',
      });
      onClose();
    } catch {
      // The request wrapper showed the reason; the dialog stays open for a correction.
    }
  };

  return (
    <Modal
      open={!!department}
      title={t('org.edit.title')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('org.save')}
      cancelText={t('org.cancel')}
      confirmLoading={edit.isPending}
      okButtonProps={{ 'data-testid': 'department-edit-submit' }}
      destroyOnHidden
    >
      {department ? (
        <Form<Values>
          form={form}
          layout="vertical"
          onFinish={submit}
          initialValues={{
            name: department.name,
            address: department.address,
            imageUrl: department.imageUrl,
          }}
        >
          <Form.Item
            name="name"
            label={t('org.field.name')}
            rules={[{ required: true, message: t('org.rule.organizationName') }, organizationNameRule(t)]}
          >
            <Input data-testid="department-edit-name" />
          </Form.Item>
          <Form.Item name="address" label={t('org.field.address')}>
            <Input maxLength={255} />
          </Form.Item>
          <Form.Item name="imageUrl" label={t('org.field.image')}>
            <ImageUpload />
          </Form.Item>
        </Form>
      ) : null}
    </Modal>
  );
}
