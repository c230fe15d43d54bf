import {
  AppstoreOutlined,
  CloudServerOutlined,
  DeleteOutlined,
  EditOutlined,
  PlusOutlined,
  ReloadOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import type { CameraView } from '@coldchain/contract';
import {
  App,
  Button,
  Card,
  Flex,
  Input,
  Popconfirm,
  Result,
  Space,
  type TableColumnsType,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { DataTable } from '../../components/DataTable';
import { useHasAuthTag } from '../../session/queries';
import { refusalOf, useCameras, useDeleteCamera } from './api';
import { OnlineTag } from './OnlineTag';
import { CAMERA_SCREEN_PATH, cameraAttrUrl, cameraDetailUrl, PLATFORM_ACCOUNT_PATH } from './paths';

const PAGE_SIZE = 20;

/** `camera`: the cameras the caller may see (department scope), what each watches, online state. */
export default function CameraListPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const canEdit = useHasAuthTag('camera:edit');
  const [keyword, setKeyword] = useState('');
  const [pageNum, setPageNum] = useState(1);
  const cameras = useCameras({ pageNum, pageSize: PAGE_SIZE, ...(keyword ? { keyword } : {}) });
  const remove = useDeleteCamera();
  const refusal = cameras.isError ? refusalOf(cameras.error) : null;

  const columns: TableColumnsType<CameraView> = [
    {
      title: t('camera.field.name'),
      key: 'name',
      render: (_, c) => (
        <Link to={cameraDetailUrl(c.id)} data-testid={`camera-open-${c.id}`}>
          {c.name}
        </Link>
      ),
    },
    { title: t('camera.field.serial'), dataIndex: 'serial', key: 'serial' },
    {
      title: t('camera.field.platform'),
      key: 'platform',
      render: (_, c) => t(`camera.platform.${c.platform}`),
    },
    { title: t('camera.field.platformAccountId'), dataIndex: 'platformAccountName', key: 'account' },
    {
      title: t('camera.field.state'),
      key: 'online',
      render: (_, c) => <OnlineTag online={c.online} id={c.id} />,
    },
    {
      title: t('camera.field.watches'),
      key: 'watches',
      render: (_, c) =>
        [...c.equipment.map((e) => e.name), ...c.devices.map((d) => d.name)].join(', ') || '-',
    },
    ...(canEdit
      ? [
          {
            title: t('camera.actions'),
            key: 'actions',
            render: (_: unknown, c: CameraView) => (
              <Space size="small" wrap>
                <Button
                  size="small"
                  icon={<EditOutlined />}
                  onClick={() => navigate(cameraAttrUrl(c.id))}
                  data-testid={`camera-edit-${c.id}`}
                >
                  {t('camera.edit')}
                </Button>
                <Popconfirm
                  title={t('camera.deleteConfirm', { name: c.name })}
                  okText={t('camera.delete')}
                  cancelText={t('camera.cancel')}
                  okButtonProps={{ danger: true, 'data-testid': 'camera-delete-confirm' }}
                  onConfirm={() =>
                    remove
                      .mutateAsync({ id: c.id })
                      .then(() => void message.success(t('camera.deleted')))
                      .catch(() => undefined)
                  }
                >
                  <Button size="small" danger icon={<DeleteOutlined />} data-testid={`camera-delete-${c.id}`}>
                    {t('camera.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]
      : []),
  ];

  return (
    <div>
      <Typography.Title level={2} data-testid="page-title">
        {t('menu.camera')}
      </Typography.Title>
      <Card>
        {refusal ? (
          <Result icon={<VideoCameraOutlined />} subTitle={refusal} data-testid="camera-refused" />
        ) : (
          <>
            <Flex justify="space-between" align="center" gap="middle" wrap style={{ marginBottom: 16 }}>
              <Input.Search
                placeholder={t('camera.keywordPlaceholder')}
                aria-label={t('camera.keywordPlaceholder')}
                onSearch={(value) => {
                  setKeyword(value.trim());
                  setPageNum(1);
                }}
                style={{ maxWidth: 320 }}
                data-testid="camera-keyword"
              />
              <Space wrap>
                <Button
                  icon={<AppstoreOutlined />}
                  onClick={() => navigate(CAMERA_SCREEN_PATH)}
                  data-testid="camera-wall"
                >
                  {t('menu.cameraScreen')}
                </Button>
                {canEdit && (
                  <>
                    <Button
                      icon={<CloudServerOutlined />}
                      onClick={() => navigate(PLATFORM_ACCOUNT_PATH)}
                      data-testid="camera-accounts"
                    >
                      {t('menu.platformAccount')}
                    </Button>
                    <Button
                      type="primary"
                      icon={<PlusOutlined />}
                      onClick={() => navigate(cameraAttrUrl())}
                      data-testid="camera-add"
                    >
                      {t('camera.add')}
                    </Button>
                  </>
                )}
              </Space>
            </Flex>
            {cameras.isError ? (
              <Result
                status="warning"
                subTitle={t('camera.loadFailed')}
                extra={
                  <Button icon={<ReloadOutlined />} onClick={() => void cameras.refetch()}>
                    {t('camera.player.retry')}
                  </Button>
                }
              />
            ) : (
              <DataTable<CameraView>
                rowKey="id"
                columns={columns}
                dataSource={cameras.data?.list ?? []}
                loading={cameras.isFetching}
                locale={{ emptyText: t('camera.empty') }}
                onRow={(c) => ({ 'data-testid': `camera-row-${c.id}` }) as object}
                pagination={{
                  current: pageNum,
                  pageSize: PAGE_SIZE,
                  total: cameras.data?.total ?? 0,
                  hideOnSinglePage: true,
                  showSizeChanger: false,
                  onChange: setPageNum,
                }}
              />
            )}
          </>
        )}
      </Card>
    </div>
  );
}
