import { UploadOutlined } from '@ant-design/icons';
import { INSTITUTION_MAX, UploadPurpose, type UploadResult } from '@coldchain/contract';
import {
  Alert,
  App,
  Button,
  Checkbox,
  DatePicker,
  Form,
  Input,
  Modal,
  Radio,
  Upload,
  type UploadFile,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { uploadFile } from '../../../api/request';
import { useNotify } from '../../../router/notify';
import { EQUIPMENT_PATHS, useAddRecord } from '../api';
import { DepartmentSelect } from '../components/DepartmentSelect';
import type { RecordKind } from '../types';

/** The kinds a person adds from the detail page; patrols are recorded from the patrol page. */
export type AddableKind = Exclude<RecordKind, 'patrol'>;
export const ADDABLE_KINDS: AddableKind[] = ['calibration', 'repair', 'maintenance', 'transfer', 'scrap'];

const CERTIFICATE_MAX_BYTES = UploadPurpose.calibration.maxBytes;
const SHORT_MAX = 50;
const TEXT_MAX = 255;
const TIME_FORMAT = 'YYYY-MM-DD HH:mm';

type Values = Record<string, unknown> & {
  calibratedAt?: Dayjs;
  nextDueAt?: Dayjs;
  faultTime?: Dayjs;
  repairTime?: Dayjs;
  startTime?: Dayjs;
  endTime?: Dayjs;
  time?: Dayjs;
  repaired?: boolean;
};

const ms = (d: Dayjs | undefined) => d?.valueOf();

/** Turns the form into `addRecord`'s fields of the kind (docs/API.md "Records"). */
function fieldsOf(kind: AddableKind, v: Values, certificateUrl: string | undefined): Record<string, unknown> {
  const text = (key: string) => (typeof v[key] === 'string' ? (v[key] as string).trim() : undefined);
  const remarks = text('remarks') ? { remarks: text('remarks') } : {};
  switch (kind) {
    case 'calibration':
      return {
        calibratedAt: v.calibratedAt?.startOf('day').valueOf(),
        nextDueAt: v.nextDueAt?.startOf('day').valueOf(),
        institution: text('institution'),
        ...(certificateUrl ? { certificateUrl } : {}),
      };
    case 'repair':
      return {
        unit: text('unit'),
        person: text('person'),
        faultTime: ms(v.faultTime),
        cause: text('cause'),
        repaired: !!v.repaired,
        ...(v.repaired ? { repairTime: ms(v.repairTime) } : {}),
      };
    case 'maintenance':
      return {
        unit: text('unit'),
        person: text('person'),
        startTime: ms(v.startTime),
        endTime: ms(v.endTime),
        preventive: !!v.preventive,
        ...remarks,
      };
    case 'scrap':
      return { scrapType: v.scrapType, time: ms(v.time), ...remarks };
    case 'transfer':
      return { toDepartmentId: v.toDepartmentId, time: ms(v.time), ...remarks };
  }
}

/**
 * Adds one lifecycle record. A scrap or move-out asks once more before it goes: it cannot be
 * undone, puts the equipment out of use and stops its sensors alarming for it.
 */
export function RecordModal({
  equipmentId,
  kind,
  onClose,
}: {
  equipmentId: string;
  kind: AddableKind;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const notify = useNotify();
  const [form] = Form.useForm<Values>();
  const add = useAddRecord();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const repaired = Form.useWatch('repaired', form);
  const certificate = files[0];
  const certificateUrl = (certificate?.response as UploadResult | undefined)?.url;

  const send = async (values: Values) => {
    try {
      await add.mutateAsync({ equipmentId, kind, ...fieldsOf(kind, values, certificateUrl) });
      notify({ type: 'success', content: t('equipment.record.added'), duration: 3 });
      onClose();
    } catch {
      // The request wrapper showed the server's message (bound to a group, already disposed...).
    }
  };

  const submit = (values: Values) => {
    if (kind !== 'scrap') return void send(values);
    modal.confirm({
      title: t('equipment.record.scrapConfirmTitle'),
      content: t('equipment.record.scrapConfirm'),
      okText: t('equipment.record.scrapConfirmOk'),
      okButtonProps: { danger: true, ...({ 'data-testid': 'scrap-confirm-ok' } as object) },
      cancelText: t('equipment.common.cancel'),
      onOk: () => send(values),
    });
  };

  const required = (key: string) => ({ required: true, message: t(`equipment.record.required.${key}`) });
  const after =
    (other: string, key: string) =>
    ({ getFieldValue }: { getFieldValue: (n: string) => unknown }) => ({
      validator: async (_: unknown, value?: Dayjs) => {
        const from = getFieldValue(other) as Dayjs | undefined;
        if (value && from && !value.isAfter(from)) throw new Error(t(`equipment.record.${key}`));
      },
    });
  const picker = (name: string, withTime = true) => (
    <DatePicker
      showTime={withTime ? { format: 'HH:mm' } : false}
      format={withTime ? TIME_FORMAT : 'YYYY-MM-DD'}
      style={{ width: '100%' }}
      data-testid={`record-${name}`}
    />
  );
  const textInput = (name: string, max = SHORT_MAX) => (
    <Input maxLength={max} data-testid={`record-${name}`} />
  );

  return (
    <Modal
      open
      title={t(`equipment.record.addTitle.${kind}`)}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('equipment.common.save')}
      cancelText={t('equipment.common.cancel')}
      okButtonProps={{
        loading: add.isPending,
        danger: kind === 'scrap',
        disabled: certificate?.status === 'uploading',
        ...({ 'data-testid': 'record-save' } as object),
      }}
      destroyOnHidden
      mask={{ closable: false }}
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{ scrapType: 'scrap', repaired: false, time: dayjs() }}
      >
        {kind === 'calibration' && (
          <>
            <Form.Item
              name="calibratedAt"
              label={t('equipment.record.field.calibratedAt')}
              rules={[required('calibratedAt')]}
            >
              {picker('calibratedAt', false)}
            </Form.Item>
            <Form.Item
              name="nextDueAt"
              label={t('equipment.record.field.nextDueAt')}
              dependencies={['calibratedAt']}
              rules={[required('nextDueAt'), after('calibratedAt', 'dueAfter')]}
            >
              {picker('nextDueAt', false)}
            </Form.Item>
            <Form.Item
              name="institution"
              label={t('equipment.record.field.institution')}
              rules={[{ ...required('institution'), whitespace: true }]}
            >
              {textInput('institution', INSTITUTION_MAX)}
            </Form.Item>
            <Form.Item
              label={t('equipment.record.field.certificate')}
              extra={t('equipment.record.certificateHint')}
            >
              <Upload
                accept="application/pdf,.pdf"
                maxCount={1}
                fileList={files}
                beforeUpload={(file) => {
                  const isPdf = file.type === 'application/pdf' || file.name.toLowerCase().endsWith('.pdf');
                  if (!isPdf || file.size > CERTIFICATE_MAX_BYTES) {
                    const key = isPdf ? 'certificateTooLarge' : 'certificateNotPdf';
                    notify({ type: 'error', content: t(`equipment.record.${key}`), duration: 5 });
                    return Upload.LIST_IGNORE;
                  }
                  return true;
                }}
                customRequest={({ file, onSuccess, onError }) => {
                  uploadFile<UploadResult>(EQUIPMENT_PATHS.upload, file as Blob, (file as File).name, {
                    purpose: 'calibration',
                  })
                    .then((result) => onSuccess?.(result))
                    .catch((e: Error) => onError?.(e));
                }}
                onChange={({ fileList }) => setFiles(fileList.filter((f) => f.status !== 'error'))}
              >
                <Button icon={<UploadOutlined />} data-testid="record-certificate-upload">
                  {t('equipment.record.upload')}
                </Button>
              </Upload>
            </Form.Item>
          </>
        )}
        {(kind === 'repair' || kind === 'maintenance') && (
          <>
            <Form.Item
              name="unit"
              label={t('equipment.record.field.unit')}
              rules={[{ ...required('unit'), whitespace: true }]}
            >
              {textInput('unit', 100)}
            </Form.Item>
            <Form.Item
              name="person"
              label={t('equipment.record.field.person')}
              rules={[{ ...required('person'), whitespace: true }]}
            >
              {textInput('person')}
            </Form.Item>
          </>
        )}
        {kind === 'repair' && (
          <>
            <Form.Item
              name="faultTime"
              label={t('equipment.record.field.faultTime')}
              rules={[required('faultTime')]}
            >
              {picker('faultTime')}
            </Form.Item>
            <Form.Item
              name="cause"
              label={t('equipment.record.field.cause')}
              rules={[{ ...required('cause'), whitespace: true }]}
            >
              <Input.TextArea rows={2} maxLength={TEXT_MAX} data-testid="record-cause" />
            </Form.Item>
            <Form.Item name="repaired" label={t('equipment.record.field.repaired')}>
              <Radio.Group data-testid="record-repaired">
                <Radio value>{t('equipment.record.yes')}</Radio>
                <Radio value={false}>{t('equipment.record.no')}</Radio>
              </Radio.Group>
            </Form.Item>
            {repaired && (
              <Form.Item
                name="repairTime"
                label={t('equipment.record.field.repairTime')}
                dependencies={['faultTime']}
                rules={[required('repairTime'), after('faultTime', 'repairAfterFault')]}
              >
                {picker('repairTime')}
              </Form.Item>
            )}
          </>
        )}
        {kind === 'maintenance' && (
          <>
            <Form.Item
              name="startTime"
              label={t('equipment.record.field.startTime')}
              rules={[required('startTime')]}
            >
              {picker('startTime')}
            </Form.Item>
            <Form.Item
              name="endTime"
              label={t('equipment.record.field.endTime')}
              dependencies={['startTime']}
              rules={[required('endTime'), after('startTime', 'endAfterStart')]}
            >
              {picker('endTime')}
            </Form.Item>
            <Form.Item name="preventive" valuePropName="checked">
              <Checkbox data-testid="record-preventive">{t('equipment.record.field.preventive')}</Checkbox>
            </Form.Item>
            <Alert
              type="info"
              showIcon
              title={t('equipment.record.maintenanceSuppresses')}
              style={{ marginBottom: 16 }}
            />
          </>
        )}
        {kind === 'scrap' && (
          <>
            <Alert
              type="warning"
              showIcon
              title={t('equipment.record.scrapWarning')}
              style={{ marginBottom: 16 }}
            />
            <Form.Item name="scrapType" label={t('equipment.record.field.scrapType')}>
              <Radio.Group data-testid="record-scrap-type">
                <Radio value="scrap">{t('equipment.record.scrapType.scrap')}</Radio>
                <Radio value="moveOut">{t('equipment.record.scrapType.moveOut')}</Radio>
              </Radio.Group>
            </Form.Item>
          </>
        )}
        {kind === 'transfer' && (
          <Form.Item
            name="toDepartmentId"
            label={t('equipment.record.field.toDepartment')}
            rules={[required('toDepartment')]}
          >
            <DepartmentSelect data-testid="record-to-department" />
          </Form.Item>
        )}
        {(kind === 'scrap' || kind === 'transfer') && (
          <Form.Item
            name="time"
            label={t('equipment.record.field.time')}
            rules={kind === 'scrap' ? [required('time')] : []}
          >
            {picker('time')}
          </Form.Item>
        )}
        {(kind === 'maintenance' || kind === 'scrap' || kind === 'transfer') && (
          <Form.Item name="remarks" label={t('equipment.field.remarks')}>
            <Input.TextArea rows={2} maxLength={TEXT_MAX} data-testid="record-remarks" />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
