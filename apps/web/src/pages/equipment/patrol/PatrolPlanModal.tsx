import { DatePicker, Form, Input, InputNumber, Modal, Radio, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../../router/notify';
import { flattenGroups } from '../../groups/GroupDialogs';
import { useDepartmentGroups } from '../../groups/queries';
import { useEquipmentPage, useSavePatrolPlan } from '../api';

/** Spec section 5: the patrol interval must exceed 6 hours; a year at most (docs/API.md). */
export const PATROL_INTERVAL_MIN_HOURS = 6;
export const PATROL_INTERVAL_MAX_HOURS = 8760;

interface Values {
  name: string;
  target: 'equipment' | 'group';
  equipmentId?: string;
  groupId?: string;
  intervalHours: number;
  startTime?: Dayjs;
}

/** A new patrol plan for one piece of equipment or a whole group. */
export function PatrolPlanModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const [form] = Form.useForm<Values>();
  const save = useSavePatrolPlan();
  const target = Form.useWatch('target', form) ?? 'equipment';
  const equipment = useEquipmentPage({ pageNum: 1, pageSize: 200 });
  const departments = useDepartmentGroups();
  const groups = (departments.data ?? []).flatMap((d) => flattenGroups(d.groups).map(({ group }) => group));

  const submit = async (values: Values) => {
    try {
      await save.mutateAsync({
        name: values.name.trim(),
        ...(values.target === 'group' ? { groupId: values.groupId } : { equipmentId: values.equipmentId }),
        intervalHours: values.intervalHours,
        ...(values.startTime ? { startTime: values.startTime.valueOf() } : {}),
      });
      notify({ type: 'success', content: t('equipment.patrol.planSaved'), duration: 3 });
      onClose();
    } catch {
      // Shown by the request wrapper.
    }
  };

  return (
    <Modal
      open
      title={t('equipment.patrol.addPlan')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('equipment.common.save')}
      cancelText={t('equipment.common.cancel')}
      okButtonProps={{ loading: save.isPending, ...({ 'data-testid': 'plan-save' } as object) }}
      destroyOnHidden
      mask={{ closable: false }}
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{ target: 'equipment', intervalHours: 12 }}
      >
        <Form.Item
          name="name"
          label={t('equipment.patrol.planName')}
          rules={[
            { required: true, whitespace: true, message: t('equipment.patrol.planNameRequired') },
            { max: 50, message: t('equipment.rule.nameTooLong', { max: 50 }) },
          ]}
        >
          <Input maxLength={50} data-testid="plan-name" />
        </Form.Item>
        <Form.Item name="target" label={t('equipment.patrol.target')}>
          <Radio.Group data-testid="plan-target">
            <Radio value="equipment">{t('equipment.patrol.targetEquipment')}</Radio>
            <Radio value="group">{t('equipment.patrol.targetGroup')}</Radio>
          </Radio.Group>
        </Form.Item>
        {target === 'equipment' ? (
          <Form.Item
            name="equipmentId"
            label={t('equipment.patrol.equipment')}
            rules={[{ required: true, message: t('equipment.patrol.equipmentRequired') }]}
          >
            <Select
              showSearch
              optionFilterProp="label"
              data-testid="plan-equipment"
              options={(equipment.data?.list ?? [])
                .filter((e) => e.useState !== 3)
                .map((e) => ({ value: e.id, label: `${e.name} (${e.serial})` }))}
            />
          </Form.Item>
        ) : (
          <Form.Item
            name="groupId"
            label={t('equipment.patrol.group')}
            rules={[{ required: true, message: t('equipment.patrol.groupRequired') }]}
          >
            <Select
              showSearch
              optionFilterProp="label"
              data-testid="plan-group"
              options={groups.map((g) => ({ value: g.id, label: g.name }))}
            />
          </Form.Item>
        )}
        <Form.Item
          name="intervalHours"
          label={t('equipment.patrol.interval')}
          extra={t('equipment.patrol.intervalHint', { min: PATROL_INTERVAL_MIN_HOURS })}
          rules={[
            { required: true, message: t('equipment.patrol.intervalRequired') },
            {
              validator: async (_, hours?: number) => {
                if (typeof hours !== 'number') return;
                if (hours <= PATROL_INTERVAL_MIN_HOURS || hours > PATROL_INTERVAL_MAX_HOURS)
                  throw new Error(
                    t('equipment.patrol.intervalRange', {
                      min: PATROL_INTERVAL_MIN_HOURS,
                      max: PATROL_INTERVAL_MAX_HOURS,
                    }),
                  );
              },
            },
          ]}
        >
          <InputNumber min={0} step={1} style={{ width: '100%' }} data-testid="plan-interval" />
        </Form.Item>
        <Form.Item
          name="startTime"
          label={t('equipment.patrol.startTime')}
          extra={t('equipment.patrol.startTimeHint')}
        >
          <DatePicker showTime format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} data-testid="plan-start" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
