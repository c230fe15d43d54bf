import { CameraOutlined } from '@ant-design/icons';
import { Card, Empty, Image, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useHasAuthTag } from '../../session/queries';
import { formatTime } from '../devices/format';
import { useAlarmSnapshots } from './api';

/**
 * The pictures the watching cameras took when the alarm started (issue 19 item 4), for the alarm
 * detail page. Nothing shows for callers without `camera:view`, nor when no camera watches.
 */
export function AlarmSnapshots({ alarmId }: { alarmId: string }) {
  const { t } = useTranslation();
  const canView = useHasAuthTag('camera:view');
  const snapshots = useAlarmSnapshots(alarmId, canView);
  const list = snapshots.data ?? [];
  if (!canView || snapshots.isError || list.length === 0) return null;
  return (
    <Card
      title={
        <Space>
          <CameraOutlined />
          {t('camera.snapshot.title')}
        </Space>
      }
      data-testid="alarm-snapshots"
    >
      <Space wrap size="middle" align="start">
        {list.map((s) => (
          <div key={s.cameraId} style={{ maxWidth: 320 }} data-testid={`alarm-snapshot-${s.cameraId}`}>
            {s.state === 'ok' && s.imageUrl ? (
              <Image
                src={s.imageUrl}
                alt={t('camera.snapshot.alt', { name: s.cameraName })}
                width={320}
                data-testid="alarm-snapshot-image"
              />
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t(`camera.snapshot.${s.state}`)} />
            )}
            <Typography.Paragraph style={{ marginTop: 4, marginBottom: 0 }}>
              {s.cameraName} {s.takenTime ? formatTime(s.takenTime) : ''}{' '}
              {s.state === 'failed' && <Tag color="warning">{t('camera.snapshot.failed')}</Tag>}
            </Typography.Paragraph>
            {s.state === 'failed' && s.error && <Typography.Text type="secondary">{s.error}</Typography.Text>}
          </div>
        ))}
      </Space>
    </Card>
  );
}
