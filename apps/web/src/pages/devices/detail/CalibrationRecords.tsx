import { UploadOutlined } from '@ant-design/icons';
import {
  type AddCalibrationRequest,
  type CalibrationView,
  INSTITUTION_MAX,
  type Page,
  UploadPurpose,
  type UploadResult,
} from '@coldchain/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  DatePicker,
  Form,
  Input,
  Modal,
  Popconfirm,
  type TableColumnsType,
  Upload,
  type UploadFile,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { request, uploadFile } from '../../../api/request';
import { DataTable } from '../../../components/DataTable';
import { useNotify } from '../../../router/notify';
import { CALIBRATION_PATHS } from './calibration-paths';

const PAGE_SIZE = 10;
const CERTIFICATE_MAX_BYTES = UploadPurpose.calibration.maxBytes;
const formatDate = (ts: number) => dayjs(ts).format('YYYY-MM-DD');

interface Values {
  calibratedAt?: Dayjs;
  nextDueAt?: Dayjs;
  institution?: string;
}

/** The list of a device's calibrations, with add and delete for those who may edit the device. */
export default function CalibrationRecords({ deviceId, canEdit }: { deviceId: string; canEdit: boolean }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [pageNum, setPageNum] = useState(1);
  const [adding, setAdding] = useState(false);
  const key = ['devices', 'calibrations', deviceId];
  const page = useQuery({
    queryKey: [...key, pageNum],
    queryFn: () =>
      request<Page<CalibrationView>>(CALIBRATION_PATHS.page, { deviceId, pageNum, pageSize: PAGE_SIZE }),
  });
  const refresh = () => void client.invalidateQueries({ queryKey: key });
  const remove = useMutation({
    mutationFn: (id: string) => request<null>(CALIBRATION_PATHS.remove, { id }),
    onSuccess: refresh,
  });

  const columns: TableColumnsType<CalibrationView> = [
    {
      title: t('calibration.calibratedAt'),
      dataIndex: 'calibratedAt',
      render: (ts: number) => formatDate(ts),
    },
    {
      title: t('calibration.nextDueAt'),
      dataIndex: 'nextDueAt',
      render: (ts: number) => formatDate(ts),
    },
    { title: t('calibration.institution'), dataIndex: 'institution' },
    {
      title: t('calibration.certificate'),
      dataIndex: 'certificateUrl',
      render: (url: string | null) =>
        url ? (
          <a href={url} target="_blank" rel="noreferrer" data-testid="calibration-certificate">
            {t('calibration.viewCertificate')}
          </a>
        ) : (
          '-'
        ),
    },
  ];
  if (canEdit) {
    columns.push({
      title: t('calibration.actions'),
      key: 'actions',
      render: (_, record) => (
        <Popconfirm
          title={t('calibration.deleteConfirm')}
          okText={t('calibration.confirm')}
          cancelText={t('calibration.cancel')}
          okButtonProps={{ danger: true }}
          onConfirm={() => remove.mutateAsync(record.id).catch(() => undefined)}
        >
          <Button type="link" danger size="small" data-testid={`calibration-delete-${record.id}`}>
            {t('calibration.delete')}
          </Button>
        </Popconfirm>
      ),
    });
  }

  return (
    <Card
      title={t('calibration.title')}
      data-testid="calibration-panel"
      extra={
        canEdit && (
          <Button type="primary" onClick={() => setAdding(true)} data-testid="calibration-add-open">
            {t('calibration.add')}
          </Button>
        )
      }
    >
      <DataTable<CalibrationView>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={page.data?.list ?? []}
        loading={page.isLoading}
        locale={{ emptyText: t('calibration.empty') }}
        pagination={{
          current: pageNum,
          pageSize: PAGE_SIZE,
          total: page.data?.total ?? 0,
          onChange: setPageNum,
          hideOnSinglePage: true,
        }}
        data-testid="calibration-table"
      />
      {adding && (
        <AddCalibrationModal
          deviceId={deviceId}
          onClose={() => setAdding(false)}
          onAdded={() => {
            setAdding(false);
            setPageNum(1);
            refresh();
          }}
        />
      )}
    </Card>
  );
}

function AddCalibrationModal({
  deviceId,
  onClose,
  onAdded,
}: {
  deviceId: string;
  onClose: () => void;
  onAdded: () => void;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  const [form] = Form.useForm<Values>();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const add = useMutation({
    mutationFn: (body: AddCalibrationRequest) => request<CalibrationView>(CALIBRATION_PATHS.add, body),
  });
  const certificate = files[0];
  const uploading = certificate?.status === 'uploading';

  const submit = async (values: Values) => {
    if (!values.calibratedAt || !values.nextDueAt) return;
    const certificateUrl = (certificate?.response as UploadResult | undefined)?.url;
    try {
      await add.mutateAsync({
        deviceId,
        // Dates are picked as days; the record keeps the start of that day.
        calibratedAt: values.calibratedAt.startOf('day').valueOf(),
        nextDueAt: values.nextDueAt.startOf('day').valueOf(),
        institution: values.institution ?? '',
        ...(certificateUrl ? { certificateUrl } : {}),
      });
      notify({ type: 'success', content: t('calibration.added'), duration: 3 });
      onAdded();
    } catch {
      // The request wrapper showed the server's message.
    }
  };

  return (
    <Modal
      open
      title={t('calibration.addTitle')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('calibration.save')}
      cancelText={t('calibration.cancel')}
      okButtonProps={{
        loading: add.isPending,
        disabled: uploading,
        ...({ 'data-testid': 'calibration-save' } as object),
      }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          name="calibratedAt"
          label={t('calibration.calibratedAt')}
          rules={[{ required: true, message: t('calibration.required.calibratedAt') }]}
        >
          <DatePicker style={{ width: '100%' }} data-testid="calibration-calibrated-at" />
        </Form.Item>
        <Form.Item
          name="nextDueAt"
          label={t('calibration.nextDueAt')}
          dependencies={['calibratedAt']}
          rules={[
            { required: true, message: t('calibration.required.nextDueAt') },
            ({ getFieldValue }) => ({
              validator: (_, value?: Dayjs) => {
                const from = getFieldValue('calibratedAt') as Dayjs | undefined;
                return !value || !from || value.isAfter(from, 'day')
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('calibration.dueAfter')));
              },
            }),
          ]}
        >
          <DatePicker style={{ width: '100%' }} data-testid="calibration-next-due-at" />
        </Form.Item>
        <Form.Item
          name="institution"
          label={t('calibration.institution')}
          rules={[
            { required: true, whitespace: true, message: t('calibration.required.institution') },
            { max: INSTITUTION_MAX, message: t('calibration.institutionTooLong', { max: INSTITUTION_MAX }) },
          ]}
        >
          <Input maxLength={INSTITUTION_MAX} showCount data-testid="calibration-institution" />
        </Form.Item>
        <Form.Item label={t('calibration.certificate')} extra={t('calibration.certificateHint')}>
          <Upload
            accept="application/pdf,.pdf"
            maxCount={1}
            fileList={files}
            beforeUpload={(file) => {
              // The server checks the bytes again; this spares an upload that would be refused.
              const isPdf = file.type === 'application/pdf' || file.name.toLowerCase().endsWith('.pdf');
              if (!isPdf || file.size > CERTIFICATE_MAX_BYTES) {
                notify({
                  type: 'error',
                  content: t(isPdf ? 'calibration.certificateTooLarge' : 'calibration.certificateNotPdf'),
                  duration: 5,
                });
                return Upload.LIST_IGNORE;
              }
              return true;
            }}
            customRequest={({ file, onSuccess, onError }) => {
              uploadFile<UploadResult>(CALIBRATION_PATHS.upload, file as Blob, (file as File).name, {
                purpose: 'calibration',
              })
                .then((result) => onSuccess?.(result))
                .catch((e: Error) => onError?.(e));
            }}
            onChange={({ fileList }) => setFiles(fileList.filter((f) => f.status !== 'error'))}
          >
            <Button icon={<UploadOutlined />} data-testid="calibration-certificate-upload">
              {t('calibration.upload')}
            </Button>
          </Upload>
        </Form.Item>
      </Form>
    </Modal>
  );
}
