import type { RoleView } from '@coldchain/contract';
import { Form, Input, Modal, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { PermissionEditor } from '../components/PermissionEditor';
import { useAddRole, useAssignableTags, useEditRole } from '../queries';
import { roleNameRule } from '../rules';

interface Values {
  name: string;
  tags: string[];
}

interface Props {
  open: boolean;
  departmentId: string;
  /** The role to edit; none adds one. */
  role: RoleView | null;
  onClose: () => void;
}

/**
 * Adds or edits a role: a name (spec section 5: 2-20 in English, 2-100 in Chinese) and its
 * permissions, limited to what the department may hold. Tags the department no longer may hold
 * are dropped on save, as the server would refuse them.
 */
export function RoleModal({ open, departmentId, role, onClose }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const assignable = useAssignableTags(departmentId, open);
  const add = useAddRole();
  const edit = useEditRole();
  const allowed =
    (role?.isDepartmentAdmin ? assignable.data?.adminTags : undefined) ?? assignable.data?.tags ?? [];

  const submit = async (values: Values) => {
    const tags = (values.tags ?? []).filter((tag) => allowed.includes(tag));
    try {
      if (role) await edit.mutateAsync({ id: role.id, name: values.name.trim(), tags });
      else await add.mutateAsync({ departmentId, name: values.name.trim(), tags });
      onClose();
    } catch {
      // The request wrapper showed the reason.
    }
  };

  return (
    <Modal
      open={open}
      width={720}
      title={role ? t('org.role.editTitle') : t('org.role.addTitle')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('org.save')}
      cancelText={t('org.cancel')}
      confirmLoading={add.isPending || edit.isPending}
      okButtonProps={{ 'data-testid': 'role-submit' }}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{ name: role?.name ?? '', tags: role?.tags ?? [] }}
      >
        <Form.Item
          name="name"
          label={t('org.role.name')}
          rules={[{ required: true, message: t('org.rule.roleName') }, roleNameRule(t)]}
        >
          <Input data-testid="role-name" />
        </Form.Item>
        <Form.Item name="tags" label={t('org.role.permissions')}>
          {assignable.isPending ? <Spin /> : <PermissionEditor assignable={allowed} />}
        </Form.Item>
      </Form>
    </Modal>
  );
}
