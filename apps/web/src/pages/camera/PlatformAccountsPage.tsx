import { CloudDownloadOutlined, DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import type { CameraPlatform, PlatformAccountView } from '@coldchain/contract';
import {
  App,
  Button,
  Card,
  Flex,
  Form,
  Input,
  Modal,
  Popconfirm,
  Result,
  Select,
  Space,
  type TableColumnsType,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/DataTable';
import { refusalOf, useDeleteAccount, useImportCameras, usePlatformAccounts, useSaveAccount } from './api';

interface Values {
  name: string;
  platform: CameraPlatform;
  appKey?: string;
  appSecret?: string;
}

/** Adds or edits an account; saved credentials are never shown, only replaced. */
function AccountModal({ account, onClose }: { account: PlatformAccountView | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const save = useSaveAccount();
  const platform = Form.useWatch('platform', form) ?? account?.platform ?? 'ezviz';
  const needsKeys = platform === 'ezviz' && !account;
  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const appKey = values.appKey?.trim();
    const appSecret = values.appSecret?.trim();
    try {
      await save.mutateAsync({
        ...(account ? { id: account.id } : {}),
        name: values.name.trim(),
        platform: values.platform,
        ...(appKey ? { appKey } : {}),
        ...(appSecret ? { appSecret } : {}),
      });
      onClose();
    } catch {
      // The request wrapper showed the message; the dialog stays open.
    }
  };
  const keyRule = { required: needsKeys, whitespace: true, message: t('camera.account.keysRequired') };
  return (
    <Modal
      open
      title={t(account ? 'camera.account.editTitle' : 'camera.account.addTitle')}
      okText={t('camera.save')}
      cancelText={t('camera.cancel')}
      onOk={submit}
      onCancel={onClose}
      okButtonProps={{
        loading: save.isPending,
        ...({ 'data-testid': 'account-save' } as Record<string, unknown>),
      }}
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ name: account?.name, platform: account?.platform ?? 'ezviz' }}
      >
        <Form.Item
          name="name"
          label={t('camera.field.name')}
          rules={[{ required: true, whitespace: true, min: 2, max: 100, message: t('camera.nameRule') }]}
        >
          <Input maxLength={100} data-testid="account-name" />
        </Form.Item>
        <Form.Item name="platform" label={t('camera.field.platform')}>
          <Select
            disabled={Boolean(account)}
            data-testid="account-platform"
            options={(['ezviz', 'direct'] as const).map((p) => ({
              value: p,
              label: t(`camera.platform.${p}`),
            }))}
          />
        </Form.Item>
        {platform === 'ezviz' && (
          <>
            <Form.Item
              name="appKey"
              label={t('camera.field.appKey')}
              rules={[keyRule]}
              extra={account ? t('camera.account.keepHint', { masked: account.appKeyMasked }) : undefined}
            >
              <Input autoComplete="off" maxLength={200} data-testid="account-app-key" />
            </Form.Item>
            <Form.Item name="appSecret" label={t('camera.field.appSecret')} rules={[keyRule]}>
              <Input.Password autoComplete="new-password" maxLength={200} data-testid="account-app-secret" />
            </Form.Item>
          </>
        )}
      </Form>
    </Modal>
  );
}

/** `platformAccount`: the company's video platform accounts, credentials shown masked. */
export default function PlatformAccountsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const accounts = usePlatformAccounts();
  const remove = useDeleteAccount();
  const importList = useImportCameras();
  const [editing, setEditing] = useState<PlatformAccountView | 'new' | null>(null);
  const refusal = accounts.isError ? refusalOf(accounts.error) : null;
  const columns: TableColumnsType<PlatformAccountView> = [
    { title: t('camera.field.name'), dataIndex: 'name', key: 'name' },
    {
      title: t('camera.field.platform'),
      key: 'platform',
      render: (_, a) => t(`camera.platform.${a.platform}`),
    },
    {
      title: t('camera.field.appKey'),
      key: 'key',
      render: (_, a) =>
        a.platform === 'ezviz' ? (
          <span data-testid={`account-key-${a.id}`}>{a.appKeyMasked || '-'}</span>
        ) : (
          '-'
        ),
    },
    { title: t('camera.account.cameras'), dataIndex: 'cameraCount', key: 'cameras' },
    {
      title: t('camera.actions'),
      key: 'actions',
      render: (_, a) => (
        <Space size="small" wrap>
          {a.platform === 'ezviz' && (
            <Button
              size="small"
              icon={<CloudDownloadOutlined />}
              loading={importList.isPending}
              data-testid={`account-import-${a.id}`}
              onClick={() =>
                importList
                  .mutateAsync({ id: a.id })
                  .then(
                    (r) =>
                      void message.success(
                        t('camera.account.imported', { listed: r.listed, added: r.added }),
                      ),
                  )
                  .catch(() => undefined)
              }
            >
              {t('camera.account.import')}
            </Button>
          )}
          <Button
            size="small"
            icon={<EditOutlined />}
            onClick={() => setEditing(a)}
            data-testid={`account-edit-${a.id}`}
          >
            {t('camera.edit')}
          </Button>
          <Popconfirm
            title={t('camera.deleteConfirm', { name: a.name })}
            okText={t('camera.delete')}
            cancelText={t('camera.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => remove.mutateAsync({ id: a.id }).catch(() => undefined)}
          >
            <Button size="small" danger icon={<DeleteOutlined />} data-testid={`account-delete-${a.id}`}>
              {t('camera.delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];
  return (
    <div>
      <Typography.Title level={2} data-testid="page-title">
        {t('menu.platformAccount')}
      </Typography.Title>
      <Card>
        {refusal ? (
          <Result subTitle={refusal} data-testid="camera-refused" />
        ) : (
          <>
            <Flex justify="end" style={{ marginBottom: 16 }}>
              <Button
                type="primary"
                icon={<PlusOutlined />}
                onClick={() => setEditing('new')}
                data-testid="account-add"
              >
                {t('camera.account.add')}
              </Button>
            </Flex>
            <DataTable<PlatformAccountView>
              rowKey="id"
              columns={columns}
              dataSource={accounts.data?.list ?? []}
              loading={accounts.isFetching}
              locale={{ emptyText: t('camera.account.empty') }}
              onRow={(a) => ({ 'data-testid': `account-row-${a.id}` }) as object}
              pagination={false}
            />
          </>
        )}
      </Card>
      {editing && (
        <AccountModal account={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
    </div>
  );
}
