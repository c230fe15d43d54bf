import { EditOutlined } from '@ant-design/icons';
import { Button, Card, Descriptions, Result, Space, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useHasAuthTag } from '../../session/queries';
import { formatTime } from '../devices/format';
import { refusalOf, useCamera } from './api';
import { LivePlayer } from './LivePlayer';
import { OnlineTag } from './OnlineTag';
import { cameraAttrUrl } from './paths';

/** `cameraDetail`: the live view of one camera, and what it is and watches. */
export default function CameraDetailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('id');
  const canEdit = useHasAuthTag('camera:edit');
  const camera = useCamera(id);
  const c = camera.data;
  return (
    <div>
      <Typography.Title level={2} data-testid="page-title">
        {c?.name ?? t('menu.cameraDetail')}
      </Typography.Title>
      {camera.isError || !id ? (
        <Result
          status="warning"
          subTitle={refusalOf(camera.error) ?? t('camera.loadFailed')}
          data-testid="camera-missing"
        />
      ) : !c ? (
        <Spin />
      ) : (
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          <Card styles={{ body: { padding: 0 } }}>
            <LivePlayer cameraId={c.id} />
          </Card>
          <Card
            extra={
              canEdit && (
                <Button
                  icon={<EditOutlined />}
                  onClick={() => navigate(cameraAttrUrl(c.id))}
                  data-testid="camera-detail-edit"
                >
                  {t('camera.edit')}
                </Button>
              )
            }
          >
            <Descriptions column={{ xs: 1, sm: 2 }} size="small">
              <Descriptions.Item label={t('camera.field.serial')}>{c.serial}</Descriptions.Item>
              <Descriptions.Item label={t('camera.field.type')}>{c.type || '-'}</Descriptions.Item>
              <Descriptions.Item label={t('camera.field.platform')}>
                {t(`camera.platform.${c.platform}`)}
              </Descriptions.Item>
              <Descriptions.Item label={t('camera.field.platformAccountId')}>
                {c.platformAccountName}
              </Descriptions.Item>
              <Descriptions.Item label={t('camera.field.channel')}>{c.channel}</Descriptions.Item>
              <Descriptions.Item label={t('camera.field.state')}>
                <OnlineTag online={c.online} id={c.id} />
                {c.onlineCheckTime ? formatTime(c.onlineCheckTime) : ''}
              </Descriptions.Item>
              <Descriptions.Item label={t('camera.field.department')}>
                {c.departmentName ?? '-'}
              </Descriptions.Item>
              <Descriptions.Item label={t('camera.field.equipmentIds')}>
                {c.equipment.map((e) => e.name).join(', ') || '-'}
              </Descriptions.Item>
              <Descriptions.Item label={t('camera.field.deviceIds')}>
                {c.devices.map((d) => `${d.name} (${d.serial})`).join(', ') || '-'}
              </Descriptions.Item>
            </Descriptions>
          </Card>
        </Space>
      )}
    </div>
  );
}
