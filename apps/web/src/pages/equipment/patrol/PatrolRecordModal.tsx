import { UploadOutlined } from '@ant-design/icons';
import { UploadPurpose, type UploadResult } from '@coldchain/contract';
import {
  Button,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Modal,
  Radio,
  Select,
  Upload,
  type UploadFile,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { uploadFile } from '../../../api/request';
import { PERSONAL_CENTER } from '../../../layout/UserMenu';
import { useNotify } from '../../../router/notify';
import { useUserInfo } from '../../../session/queries';
import { EQUIPMENT_PATHS, useAddRecord, useEquipmentPage } from '../api';
import type { PatrolPlan } from '../types';

const PHOTO_MAX_BYTES = UploadPurpose.feedback.maxBytes;

interface Values {
  equipmentId: string;
  time: Dayjs;
  person: string;
  reading?: number | null;
  condition: 'normal' | 'abnormal';
  remarks?: string;
  signPassword: string;
}

/**
 * Records a patrol round of a plan. Spec section 5: a patrol always needs the signature password,
 * whatever the audit signature switch (so this field is drawn always, unlike SignPasswordField).
 */
export function PatrolRecordModal({ plan, onClose }: { plan: PatrolPlan; onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const [form] = Form.useForm<Values>();
  const user = useUserInfo();
  const add = useAddRecord();
  const [files, setFiles] = useState<UploadFile[]>([]);
  // A group plan is patrolled one piece at a time; the list is the caller's equipment of that group.
  const equipment = useEquipmentPage({ pageNum: 1, pageSize: 200 });
  const choices = (equipment.data?.list ?? []).filter((e) => e.groupId === plan.groupId && e.useState !== 3);
  const photoUrl = (files[0]?.response as UploadResult | undefined)?.url;

  const submit = async (values: Values) => {
    try {
      await add.mutateAsync({
        equipmentId: plan.equipmentId ?? values.equipmentId,
        kind: 'patrol',
        planId: plan.id,
        time: values.time.valueOf(),
        person: values.person.trim(),
        ...(typeof values.reading === 'number' ? { reading: values.reading } : {}),
        condition: values.condition,
        ...(values.remarks?.trim() ? { remarks: values.remarks.trim() } : {}),
        ...(photoUrl ? { photoUrl } : {}),
        signPassword: values.signPassword,
      });
      notify({ type: 'success', content: t('equipment.patrol.recorded'), duration: 3 });
      onClose();
    } catch {
      // Shown by the request wrapper (a wrong signature password...).
    }
  };

  return (
    <Modal
      open
      title={t('equipment.patrol.recordTitle', { name: plan.name })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('equipment.common.save')}
      cancelText={t('equipment.common.cancel')}
      okButtonProps={{
        loading: add.isPending,
        disabled: files[0]?.status === 'uploading',
        ...({ 'data-testid': 'patrol-save' } as object),
      }}
      destroyOnHidden
      mask={{ closable: false }}
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{ time: dayjs(), person: user.data?.relName ?? '', condition: 'normal' }}
      >
        {!plan.equipmentId && (
          <Form.Item
            name="equipmentId"
            label={t('equipment.patrol.equipment')}
            rules={[{ required: true, message: t('equipment.patrol.equipmentRequired') }]}
          >
            <Select
              data-testid="patrol-equipment"
              options={choices.map((e) => ({ value: e.id, label: `${e.name} (${e.serial})` }))}
            />
          </Form.Item>
        )}
        <Form.Item
          name="time"
          label={t('equipment.patrol.time')}
          rules={[{ required: true, message: t('equipment.patrol.timeRequired') }]}
        >
          <DatePicker
            showTime
            format="YYYY-MM-DD HH:mm"
            style={{ width: '100%' }}
            data-testid="patrol-time"
          />
        </Form.Item>
        <Form.Item
          name="person"
          label={t('equipment.patrol.person')}
          rules={[
            { required: true, whitespace: true, message: t('equipment.patrol.personRequired') },
            { max: 50, message: t('equipment.rule.nameTooLong', { max: 50 }) },
          ]}
        >
          <Input maxLength={50} data-testid="patrol-person" />
        </Form.Item>
        <Form.Item name="reading" label={t('equipment.patrol.reading')}>
          <InputNumber style={{ width: '100%' }} data-testid="patrol-reading" />
        </Form.Item>
        <Form.Item name="condition" label={t('equipment.patrol.conditionLabel')}>
          <Radio.Group data-testid="patrol-condition">
            <Radio value="normal">{t('equipment.patrol.condition.normal')}</Radio>
            <Radio value="abnormal">{t('equipment.patrol.condition.abnormal')}</Radio>
          </Radio.Group>
        </Form.Item>
        <Form.Item name="remarks" label={t('equipment.field.remarks')}>
          <Input.TextArea rows={2} maxLength={255} data-testid="patrol-remarks" />
        </Form.Item>
        <Form.Item label={t('equipment.patrol.photo')}>
          <Upload
            accept=".jpg,.jpeg,.png"
            listType="picture"
            maxCount={1}
            fileList={files}
            beforeUpload={(file) => {
              if (file.size > PHOTO_MAX_BYTES) {
                notify({ type: 'error', content: t('equipment.patrol.photoTooLarge'), duration: 5 });
                return Upload.LIST_IGNORE;
              }
              return true;
            }}
            customRequest={({ file, onSuccess, onError }) => {
              uploadFile<UploadResult>(EQUIPMENT_PATHS.upload, file as Blob, (file as File).name, {
                purpose: 'feedback',
              })
                .then((result) => onSuccess?.(result))
                .catch((e: Error) => onError?.(e));
            }}
            onChange={({ fileList }) => setFiles(fileList.filter((f) => f.status !== 'error'))}
          >
            <Button icon={<UploadOutlined />} data-testid="patrol-photo-upload">
              {t('equipment.patrol.uploadPhoto')}
            </Button>
          </Upload>
        </Form.Item>
        <Form.Item
          name="signPassword"
          label={t('common.signature.password')}
          extra={
            <>
              {t('equipment.patrol.signHint')}{' '}
              <Link to={`${PERSONAL_CENTER}?panel=signPassword`}>{t('common.signature.setOne')}</Link>
            </>
          }
          rules={[{ required: true, message: t('common.signature.required') }]}
        >
          <Input.Password autoComplete="off" data-testid="patrol-sign-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
