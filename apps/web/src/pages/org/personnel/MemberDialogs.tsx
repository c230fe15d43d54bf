import type { MemberView } from '@coldchain/contract';
import { Form, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { DepartmentTreeSelect } from '../components/DepartmentTreeSelect';
import { RoleSelect } from '../components/RoleSelect';
import { useAssignRole, useMoveUser } from '../queries';

interface Props {
  member: MemberView | null;
  onClose: () => void;
}

/** Gives a member one of the roles of their department. */
export function AssignRoleModal({ member, onClose }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ roleId: string }>();
  const assign = useAssignRole();
  const submit = async ({ roleId }: { roleId: string }) => {
    if (!member) return;
    try {
      await assign.mutateAsync({ userId: member.userId, roleId });
      onClose();
    } catch {
      // Shown by the request wrapper.
    }
  };
  return (
    <Modal
      open={!!member}
      title={t('org.personnel.assignTitle', { name: member?.name ?? '' })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('org.save')}
      cancelText={t('org.cancel')}
      confirmLoading={assign.isPending}
      okButtonProps={{ 'data-testid': 'assign-submit' }}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{ roleId: member?.roleId ?? undefined }}
      >
        <Form.Item
          name="roleId"
          label={t('org.field.role')}
          rules={[{ required: true, message: t('org.rule.roleRequired') }]}
        >
          <RoleSelect departmentId={member?.departmentId} data-testid="assign-role" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

interface MoveValues {
  departmentId: string;
  roleId?: string;
}

/** Moves a member to another department, with one of its roles or none yet. */
export function MoveUserModal({ member, onClose }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<MoveValues>();
  const move = useMoveUser();
  const departmentId = Form.useWatch('departmentId', form);
  const submit = async (values: MoveValues) => {
    if (!member) return;
    try {
      await move.mutateAsync({
        userId: member.userId,
        departmentId: values.departmentId,
        ...(values.roleId ? { roleId: values.roleId } : {}),
      });
      onClose();
    } catch {
      // Shown by the request wrapper.
    }
  };
  return (
    <Modal
      open={!!member}
      title={t('org.personnel.moveTitle', { name: member?.name ?? '' })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('org.save')}
      cancelText={t('org.cancel')}
      confirmLoading={move.isPending}
      okButtonProps={{ 'data-testid': 'move-submit' }}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        onValuesChange={(changed: Partial<MoveValues>) => {
          // The old role belongs to the old department.
          if ('departmentId' in changed) form.setFieldValue('roleId', undefined);
        }}
      >
        <Form.Item
          name="departmentId"
          label={t('org.personnel.targetDepartment')}
          rules={[{ required: true, message: t('org.rule.departmentRequired') }]}
        >
          <DepartmentTreeSelect data-testid="move-department" />
        </Form.Item>
        <Form.Item name="roleId" label={t('org.field.role')} extra={t('org.personnel.roleLater')}>
          <RoleSelect departmentId={departmentId} allowClear data-testid="move-role" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
