import type { DepartmentGroups, GroupNode } from '@coldchain/contract';
import { Form, Input, Modal, Select } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useAddGroup, useDepartmentGroups, useEditGroup, useMoveGroup } from './queries';

/** Spec section 5: a group name is 2-20 characters (contract `GroupName`). */
export function isGroupName(value: string): boolean {
  const length = Array.from(value.trim()).length;
  return length >= 2 && length <= 20;
}

/** Every group of a tree, depth first, with its depth (for indented pickers). */
export function flattenGroups<T extends { children: T[] }>(
  groups: T[],
  depth = 0,
): { group: T; depth: number }[] {
  return groups.flatMap((group) => [{ group, depth }, ...flattenGroups(group.children, depth + 1)]);
}

/** The ids of `group` and of every group below it: a group cannot move into any of them. */
export function subtreeIds(group: GroupNode): Set<string> {
  return new Set(flattenGroups([group]).map((entry) => entry.group.id));
}

const indent = (depth: number) => `${'\u2003'.repeat(depth)}`;

export type GroupFormTarget =
  | { mode: 'add'; departmentId: string; departmentName: string; parentGroups: GroupNode[] }
  | { mode: 'edit'; group: GroupNode };

/** Adds a group to a department (optionally under another group), or renames one. */
export function GroupFormModal({ target, onClose }: { target: GroupFormTarget | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string; parentId?: string }>();
  const add = useAddGroup();
  const edit = useEditGroup();
  const pending = add.isPending || edit.isPending;

  useEffect(() => {
    if (target)
      form.setFieldsValue({ name: target.mode === 'edit' ? target.group.name : '', parentId: undefined });
  }, [target, form]);

  const submit = async (values: { name: string; parentId?: string }) => {
    if (!target) return;
    try {
      if (target.mode === 'add')
        await add.mutateAsync({
          departmentId: target.departmentId,
          name: values.name.trim(),
          ...(values.parentId ? { parentId: values.parentId } : {}),
        });
      else await edit.mutateAsync({ id: target.group.id, name: values.name.trim() });
      onClose();
    } catch {
      // The request wrapper showed the server's message; the dialog stays open for a correction.
    }
  };

  return (
    <Modal
      open={!!target}
      title={target?.mode === 'edit' ? t('groups.form.editTitle') : t('groups.form.addTitle')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('groups.form.save')}
      cancelText={t('groups.form.cancel')}
      okButtonProps={{ loading: pending, 'data-testid': 'group-form-submit' }}
      destroyOnHidden
      mask={{ closable: false }}
    >
      <Form form={form} layout="vertical" onFinish={submit}>
        {target?.mode === 'add' && (
          <Form.Item label={t('groups.form.department')}>
            <Input value={target.departmentName} disabled />
          </Form.Item>
        )}
        <Form.Item
          name="name"
          label={t('groups.form.name')}
          rules={[
            {
              validator: async (_, value: string | undefined) => {
                if (!isGroupName(value ?? '')) throw new Error(t('groups.rule.name'));
              },
            },
          ]}
        >
          <Input data-testid="group-name" autoFocus />
        </Form.Item>
        {target?.mode === 'add' && target.parentGroups.length > 0 && (
          <Form.Item name="parentId" label={t('groups.form.parent')}>
            <Select
              allowClear
              placeholder={t('groups.form.topLevel')}
              data-testid="group-parent"
              options={flattenGroups(target.parentGroups).map(({ group, depth }) => ({
                value: group.id,
                label: `${indent(depth)}${group.name}`,
              }))}
            />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}

/**
 * Moves a group within its department: to the top or under another group. Spec section 5: the
 * dialog names the refused moves (another department, the company, itself or a sub-group) before
 * asking the server, which enforces the same rules.
 */
export function MoveGroupModal({ group, onClose }: { group: GroupNode | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ departmentId: string; parentId?: string }>();
  const departments = useDepartmentGroups(!!group);
  const move = useMoveGroup();
  const departmentId = Form.useWatch('departmentId', form);

  useEffect(() => {
    if (group)
      form.setFieldsValue({
        departmentId: group.departmentId,
        parentId: group.pid === '0' ? undefined : group.pid,
      });
  }, [group, form]);

  const list: DepartmentGroups[] = departments.data ?? [];
  const chosen = list.find((d) => d.id === departmentId);

  const submit = async (values: { departmentId: string; parentId?: string }) => {
    if (!group) return;
    try {
      await move.mutateAsync({
        id: group.id,
        departmentId: values.departmentId,
        ...(values.parentId ? { parentId: values.parentId } : {}),
      });
      onClose();
    } catch {
      // Shown by the request wrapper.
    }
  };

  return (
    <Modal
      open={!!group}
      title={t('groups.move.title', { name: group?.name ?? '' })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('groups.move.submit')}
      cancelText={t('groups.form.cancel')}
      okButtonProps={{ loading: move.isPending, 'data-testid': 'group-move-submit' }}
      destroyOnHidden
      mask={{ closable: false }}
    >
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          name="departmentId"
          label={t('groups.form.department')}
          rules={[
            {
              validator: async (_, value: string | undefined) => {
                if (!group || value === group.departmentId) return;
                const target = list.find((d) => d.id === value);
                throw new Error(
                  t(target?.pid === '0' ? 'groups.rule.toCompany' : 'groups.rule.acrossDepartments'),
                );
              },
            },
          ]}
        >
          <Select
            data-testid="group-move-department"
            loading={departments.isLoading}
            onChange={() => form.setFieldValue('parentId', undefined)}
            options={list.map((d) => ({ value: d.id, label: `${indent(d.level - 1)}${d.name}` }))}
          />
        </Form.Item>
        <Form.Item
          name="parentId"
          label={t('groups.form.parent')}
          rules={[
            {
              validator: async (_, value: string | undefined) => {
                if (group && value && subtreeIds(group).has(value))
                  throw new Error(t('groups.rule.intoItself'));
              },
            },
          ]}
        >
          <Select
            allowClear
            placeholder={t('groups.form.topLevel')}
            data-testid="group-move-parent"
            options={flattenGroups(chosen?.groups ?? []).map(({ group: g, depth }) => ({
              value: g.id,
              label: `${indent(depth)}${g.name}`,
            }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
