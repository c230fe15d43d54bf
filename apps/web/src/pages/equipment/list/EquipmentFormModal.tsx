import { Flex, Form, Input, InputNumber, Modal, Select } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../../router/notify';
import { flattenGroups } from '../../groups/GroupDialogs';
import { useDepartmentGroups } from '../../groups/queries';
import { useEquipmentDetail, useEquipmentTypes, useSaveEquipment } from '../api';
import { fromWireValue, SERIAL_SUFFIX_PATTERN, toWireValue } from '../attribute-rules';
import { AttributeValueField } from '../components/AttributeValueField';
import { DepartmentSelect } from '../components/DepartmentSelect';
import { SensorPicker } from '../components/SensorPicker';
import {
  type AttributeValue,
  type Equipment,
  type SaveEquipmentRequest,
  UseState,
  type WireValue,
} from '../types';

interface Values {
  typeId: string;
  serialSuffix: string;
  name: string;
  departmentId?: string;
  groupId?: string;
  region?: string;
  address?: string;
  remarks?: string;
  useState: number;
  budgetMin?: number | null;
  budgetMax?: number | null;
  budgetMinutes?: number | null;
  sensorIds?: string[];
  attributes?: Record<string, AttributeValue>;
}

/** States a person may set; disposed comes only from a scrap record, which cannot be undone. */
const SETTABLE_STATES = [UseState.InUse, UseState.UnderService, UseState.Standby];
const NAME_MAX = 100;
const TEXT_MAX = 255;
/** docs/API.md: a budget is 0-44640 minutes per 30 days (all of them). */
const BUDGET_MAX_MINUTES = 44_640;

function initialValues(equipment: Equipment | undefined, typeCode: string | undefined): Partial<Values> {
  if (!equipment) return { useState: UseState.InUse, sensorIds: [] };
  const suffix =
    equipment.serialSuffix ??
    (typeCode && equipment.serial.startsWith(typeCode) ? equipment.serial.slice(typeCode.length) : '');
  return {
    typeId: equipment.typeId,
    serialSuffix: suffix,
    name: equipment.name,
    departmentId: equipment.departmentId ?? undefined,
    groupId: equipment.groupId ?? undefined,
    region: equipment.region ?? '',
    address: equipment.address ?? '',
    remarks: equipment.remarks ?? '',
    useState: equipment.useState,
    budgetMin: equipment.excursion?.min ?? null,
    budgetMax: equipment.excursion?.max ?? null,
    budgetMinutes: equipment.excursion?.budgetMinutes ?? null,
    sensorIds: equipment.sensors.map((s) => s.id),
  };
}

/** The budget is sent only with a limit and a number of minutes; otherwise the equipment has none. */
function excursionOf(values: Values): SaveEquipmentRequest['excursion'] {
  const hasLimit = typeof values.budgetMin === 'number' || typeof values.budgetMax === 'number';
  if (!hasLimit || typeof values.budgetMinutes !== 'number') return null;
  return {
    ...(typeof values.budgetMin === 'number' ? { min: values.budgetMin } : {}),
    ...(typeof values.budgetMax === 'number' ? { max: values.budgetMax } : {}),
    budgetMinutes: values.budgetMinutes,
  };
}

/**
 * Adds a piece of equipment (`id` null) or edits one: its type, serial (the type's code plus 4
 * digits), place, use state, sensors, excursion budget and the type's archive attributes.
 */
export function EquipmentFormModal({
  id,
  open,
  onClose,
}: {
  id: string | null;
  open: boolean;
  onClose: (saved?: { id: string; serial: string }) => void;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  const [form] = Form.useForm<Values>();
  const types = useEquipmentTypes();
  const detail = useEquipmentDetail(open ? id : null);
  const save = useSaveEquipment();
  const departmentGroups = useDepartmentGroups(open);
  const groups = (departmentGroups.data ?? []).flatMap((d) =>
    flattenGroups(d.groups).map(({ group }) => group),
  );
  const typeId = Form.useWatch('typeId', form);
  const type = types.data?.list.find((ty) => ty.id === typeId);
  const editing = id !== null;
  const loaded = !editing || !!detail.data;

  // The stored values fill the form once both the equipment and its type are known.
  const storedType = detail.data?.type ?? types.data?.list.find((ty) => ty.id === detail.data?.typeId);
  useEffect(() => {
    if (!open || !loaded) return;
    const equipment = detail.data;
    form.setFieldsValue(initialValues(equipment, storedType?.code));
    if (equipment && storedType) {
      const attributes: Record<string, AttributeValue> = {};
      for (const attribute of storedType.attributes) {
        const value = attribute.id ? fromWireValue(attribute, equipment.attributes[attribute.id]) : undefined;
        if (attribute.id && value !== undefined) attributes[attribute.id] = value;
      }
      form.setFieldValue('attributes', attributes);
    }
  }, [open, loaded, detail.data, storedType, form]);

  const submit = async (values: Values) => {
    const attributes: Record<string, WireValue> = {};
    for (const attribute of type?.attributes ?? []) {
      if (!attribute.id) continue;
      const value = toWireValue(attribute, values.attributes?.[attribute.id]);
      if (value !== undefined) attributes[attribute.id] = value;
    }
    const body: SaveEquipmentRequest = {
      ...(id ? { id } : {}),
      typeId: values.typeId,
      serialSuffix: values.serialSuffix,
      name: values.name.trim(),
      ...(values.departmentId ? { departmentId: values.departmentId } : {}),
      // '' unbinds: a cleared select must reach the server, or the equipment stays in its group.
      groupId: values.groupId ?? '',
      address: values.address?.trim() ?? '',
      region: values.region?.trim() ?? '',
      remarks: values.remarks?.trim() ?? '',
      useState: values.useState,
      attributes,
      sensorIds: values.sensorIds ?? [],
      excursion: excursionOf(values),
    };
    try {
      const saved = await save.mutateAsync(body);
      notify({ type: 'success', content: t('equipment.form.saved', { serial: saved.serial }), duration: 3 });
      onClose(saved);
    } catch {
      // The request wrapper showed the server's message (a taken serial, a bound sensor...).
    }
  };

  const disposed = detail.data?.useState === UseState.Disposed;
  return (
    <Modal
      open={open}
      title={t(editing ? 'equipment.form.editTitle' : 'equipment.form.addTitle')}
      onCancel={() => onClose()}
      onOk={() => form.submit()}
      okText={t('equipment.common.save')}
      cancelText={t('equipment.common.cancel')}
      okButtonProps={{
        loading: save.isPending,
        disabled: !loaded,
        ...({ 'data-testid': 'equipment-save' } as object),
      }}
      destroyOnHidden
      mask={{ closable: false }}
      width={640}
    >
      <Form form={form} layout="vertical" onFinish={submit} preserve={false} disabled={disposed}>
        <Form.Item
          name="typeId"
          label={t('equipment.field.type')}
          rules={[{ required: true, message: t('equipment.rule.typeRequired') }]}
        >
          <Select
            data-testid="equipment-type-select"
            loading={types.isLoading}
            options={(types.data?.list ?? []).map((ty) => ({
              value: ty.id,
              label: `${ty.name} (${ty.code})`,
            }))}
          />
        </Form.Item>
        <Form.Item
          name="serialSuffix"
          label={t('equipment.field.serialSuffix')}
          extra={t('equipment.form.serialHint')}
          rules={[
            { required: true, message: t('equipment.rule.serialRequired') },
            { pattern: SERIAL_SUFFIX_PATTERN, message: t('equipment.rule.serialFormat') },
          ]}
        >
          <Input
            prefix={<span data-testid="equipment-serial-prefix">{type?.code ?? '—'}</span>}
            maxLength={4}
            inputMode="numeric"
            data-testid="equipment-serial-suffix"
          />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('equipment.field.name')}
          rules={[
            { required: true, whitespace: true, message: t('equipment.rule.nameRequired') },
            { max: NAME_MAX, message: t('equipment.rule.nameTooLong', { max: NAME_MAX }) },
          ]}
        >
          <Input maxLength={NAME_MAX} data-testid="equipment-name" />
        </Form.Item>
        <Form.Item name="departmentId" label={t('equipment.field.department')}>
          <DepartmentSelect allowClear data-testid="equipment-department" />
        </Form.Item>
        <Form.Item name="groupId" label={t('equipment.field.group')} extra={t('equipment.form.groupHint')}>
          <Select
            allowClear
            showSearch
            optionFilterProp="label"
            loading={departmentGroups.isLoading}
            options={groups.map((g) => ({ value: g.id, label: g.name }))}
            data-testid="equipment-group-select"
          />
        </Form.Item>
        <Form.Item name="useState" label={t('equipment.field.useState')}>
          <Select
            data-testid="equipment-use-state-select"
            options={(disposed ? [UseState.Disposed] : SETTABLE_STATES).map((s) => ({
              value: s,
              label: t(`equipment.useState.${s}`),
            }))}
          />
        </Form.Item>
        <Form.Item name="region" label={t('equipment.field.region')}>
          <Input maxLength={TEXT_MAX} data-testid="equipment-region" />
        </Form.Item>
        <Form.Item name="address" label={t('equipment.field.address')}>
          <Input maxLength={TEXT_MAX} data-testid="equipment-address" />
        </Form.Item>
        <Form.Item name="remarks" label={t('equipment.field.remarks')}>
          <Input.TextArea rows={2} maxLength={TEXT_MAX} data-testid="equipment-remarks" />
        </Form.Item>
        <Form.Item
          name="sensorIds"
          label={t('equipment.field.sensors')}
          extra={t('equipment.form.sensorsHint')}
        >
          <SensorPicker equipmentId={id} />
        </Form.Item>
        <Form.Item label={t('equipment.field.budget')} extra={t('equipment.form.budgetHint')}>
          <Flex gap="small" wrap>
            <Form.Item name="budgetMin" noStyle>
              <InputNumber placeholder={t('equipment.form.budgetMin')} data-testid="equipment-budget-min" />
            </Form.Item>
            <Form.Item name="budgetMax" noStyle>
              <InputNumber placeholder={t('equipment.form.budgetMax')} data-testid="equipment-budget-max" />
            </Form.Item>
            <Form.Item
              name="budgetMinutes"
              noStyle
              dependencies={['budgetMin', 'budgetMax']}
              rules={[
                ({ getFieldValue }) => ({
                  validator: async (_, minutes: number | null | undefined) => {
                    const limit =
                      typeof getFieldValue('budgetMin') === 'number' ||
                      typeof getFieldValue('budgetMax') === 'number';
                    if (limit && typeof minutes !== 'number') throw new Error(t('equipment.rule.budget'));
                  },
                }),
              ]}
            >
              <InputNumber
                min={0}
                max={BUDGET_MAX_MINUTES}
                precision={0}
                placeholder={t('equipment.form.budgetMinutes')}
                data-testid="equipment-budget-minutes"
              />
            </Form.Item>
          </Flex>
        </Form.Item>
        {(type?.attributes ?? []).map((attribute, index) => (
          <AttributeValueField key={attribute.id ?? index} attribute={attribute} index={index} />
        ))}
      </Form>
    </Modal>
  );
}
