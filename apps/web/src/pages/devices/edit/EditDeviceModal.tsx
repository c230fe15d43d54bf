import type { DeviceView } from '@coldchain/contract';
import { App, Button, Form, type FormRule, Input, InputNumber, Modal, Select, Spin, TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import { RequestError } from '../../../api/request';
import { flattenGroups } from '../../groups/GroupDialogs';
import { useDepartmentGroups } from '../../groups/queries';
import { useDeviceDetail, useEditDevice } from '../queries';
import {
  departmentTree,
  EDIT_FIELDS,
  EDIT_LIMITS,
  type EditField,
  type EditValues,
  fieldOfMessage,
  isPccModel,
  toEditRequest,
  toEditValues,
} from './edit-form';

/**
 * Edits a monitor's settings (spec sections 3 and 5): name, place, intervals, PCC addresses,
 * remarks and location. Pre-filled from the detail call; `deviceId` null keeps it closed.
 */
export function EditDeviceModal({ deviceId, onClose }: { deviceId: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const detail = useDeviceDetail(deviceId);
  const device = detail.data;
  return (
    <Modal
      open={deviceId !== null}
      title={t('devices.edit.title')}
      onCancel={onClose}
      footer={null}
      mask={{ closable: false }}
      destroyOnHidden
      width={640}
    >
      {device && device.id === deviceId ? (
        <EditDeviceForm device={device} onDone={onClose} />
      ) : (
        <Spin data-testid="edit-device-loading" />
      )}
    </Modal>
  );
}

function EditDeviceForm({ device, onDone }: { device: DeviceView; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<EditValues>();
  const departments = useDepartmentGroups();
  const save = useEditDevice();
  const departmentId = Form.useWatch('departmentId', form);
  const groups = departments.data?.find((d) => d.id === departmentId)?.groups ?? [];
  const pcc = isPccModel(device.model);
  const label = (field: EditField) => t(`devices.edit.field.${field}`);

  const required = (field: EditField): FormRule => ({
    required: true,
    whitespace: true,
    message: t('devices.edit.rule.required', { field: label(field) }),
  });
  const tooLong = (field: EditField, max: number): FormRule => ({
    max,
    message: t('devices.edit.rule.tooLong', { field: label(field), max }),
  });
  /** The same bounds and wording as the server's validation of a whole number. */
  const wholeNumber = (field: EditField, min: number, max: number): FormRule => ({
    validator: async (_, value: number | null | undefined) => {
      const name = label(field);
      if (value === null || value === undefined)
        throw new Error(t('devices.edit.rule.required', { field: name }));
      if (!Number.isInteger(value)) throw new Error(t('devices.edit.rule.integer', { field: name }));
      if (value < min) throw new Error(t('devices.edit.rule.tooSmall', { field: name, min }));
      if (value > max) throw new Error(t('devices.edit.rule.tooBig', { field: name, max }));
    },
  });
  const interval = (field: EditField) => wholeNumber(field, EDIT_LIMITS.intervalMin, EDIT_LIMITS.intervalMax);

  const submit = async (values: EditValues) => {
    try {
      await save.mutateAsync(toEditRequest(device, values));
      void message.success(t('devices.edit.saved'));
      onDone();
    } catch (error) {
      // The wrapper toasted the message; it also goes next to the field it names.
      if (!(error instanceof RequestError)) return;
      const labels = Object.fromEntries(EDIT_FIELDS.map((f) => [f, label(f)])) as Record<EditField, string>;
      const field = fieldOfMessage(error.message, labels);
      if (field) form.setFields([{ name: field, errors: [error.message] }]);
    }
  };

  const seconds = t('devices.edit.seconds');
  return (
    <Form<EditValues>
      form={form}
      layout="vertical"
      initialValues={toEditValues(device)}
      onFinish={submit}
      data-testid="edit-device-form"
    >
      <Form.Item
        name="name"
        label={label('name')}
        rules={[required('name'), tooLong('name', EDIT_LIMITS.nameMax)]}
      >
        <Input data-testid="edit-device-name" />
      </Form.Item>
      <Form.Item name="departmentId" label={label('departmentId')}>
        <TreeSelect
          treeDefaultExpandAll
          showSearch
          treeNodeFilterProp="title"
          loading={departments.isPending}
          treeData={departmentTree(departments.data ?? [])}
          // A group lies in one department: picking another department drops the group.
          onChange={() => form.setFieldValue('groupId', undefined)}
          data-testid="edit-device-department"
        />
      </Form.Item>
      <Form.Item name="groupId" label={label('groupId')} extra={t('devices.edit.groupHint')}>
        <Select
          allowClear
          placeholder={t('devices.edit.noGroup')}
          options={flattenGroups(groups).map(({ group, depth }) => ({
            value: group.id,
            label: `${'\u2003'.repeat(depth)}${group.name}`,
          }))}
          data-testid="edit-device-group"
        />
      </Form.Item>
      <Form.Item name="recordInterval" label={label('recordInterval')} rules={[interval('recordInterval')]}>
        <InputNumber suffix={seconds} style={{ width: '100%' }} data-testid="edit-device-recordInterval" />
      </Form.Item>
      <Form.Item name="uploadInterval" label={label('uploadInterval')} extra={t('devices.edit.uploadHint')}>
        <InputNumber
          suffix={seconds}
          disabled
          style={{ width: '100%' }}
          data-testid="edit-device-uploadInterval"
        />
      </Form.Item>
      <Form.Item
        name="alarmVerifyInterval"
        label={label('alarmVerifyInterval')}
        dependencies={['uploadInterval']}
        rules={[
          interval('alarmVerifyInterval'),
          ({ getFieldValue }) => ({
            validator: async (_, value: number | null) => {
              if (typeof value === 'number' && value > Number(getFieldValue('uploadInterval'))) {
                throw new Error(t('devices.edit.rule.alarmVerifyInterval'));
              }
            },
          }),
        ]}
      >
        <InputNumber
          suffix={seconds}
          style={{ width: '100%' }}
          data-testid="edit-device-alarmVerifyInterval"
        />
      </Form.Item>
      <Form.Item
        name="offlineJudgement"
        label={label('offlineJudgement')}
        extra={t('devices.edit.offlineHint')}
        rules={[wholeNumber('offlineJudgement', EDIT_LIMITS.offlineMin, EDIT_LIMITS.offlineMax)]}
      >
        <InputNumber style={{ width: '100%' }} data-testid="edit-device-offlineJudgement" />
      </Form.Item>
      {pcc && (
        <>
          <Form.Item
            name="hostAddress"
            label={label('hostAddress')}
            rules={[tooLong('hostAddress', EDIT_LIMITS.addressPartMax)]}
          >
            <Input data-testid="edit-device-hostAddress" />
          </Form.Item>
          <Form.Item
            name="subAddress"
            label={label('subAddress')}
            rules={[tooLong('subAddress', EDIT_LIMITS.addressPartMax)]}
          >
            <Input data-testid="edit-device-subAddress" />
          </Form.Item>
        </>
      )}
      <Form.Item name="remark" label={label('remark')} rules={[tooLong('remark', EDIT_LIMITS.textMax)]}>
        <Input.TextArea rows={2} data-testid="edit-device-remark" />
      </Form.Item>
      <Form.Item name="region" label={label('region')} rules={[tooLong('region', EDIT_LIMITS.textMax)]}>
        <Input data-testid="edit-device-region" />
      </Form.Item>
      <Form.Item name="address" label={label('address')} rules={[tooLong('address', EDIT_LIMITS.textMax)]}>
        <Input data-testid="edit-device-address" />
      </Form.Item>
      <Form.Item style={{ marginBottom: 0, textAlign: 'right' }}>
        <SubmitButtons saving={save.isPending} onCancel={onDone} />
      </Form.Item>
    </Form>
  );
}

function SubmitButtons({ saving, onCancel }: { saving: boolean; onCancel: () => void }) {
  const { t } = useTranslation();
  return (
    <span style={{ display: 'inline-flex', gap: 8 }}>
      <Button onClick={onCancel}>{t('devices.edit.cancel')}</Button>
      <Button type="primary" htmlType="submit" loading={saving} data-testid="edit-device-submit">
        {t('devices.edit.submit')}
      </Button>
    </span>
  );
}
