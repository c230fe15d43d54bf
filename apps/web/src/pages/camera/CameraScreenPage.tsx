import { FullscreenOutlined, SaveOutlined } from '@ant-design/icons';
import { SCREEN_SIZES } from '@coldchain/contract';
import { App, Button, Card, Flex, Segmented, Select, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCameraScreen, useCameras, useSaveScreen } from './api';
import { LivePlayer } from './LivePlayer';

type Size = (typeof SCREEN_SIZES)[number];

/** One tile; a click on its button shows it alone on the whole screen (Esc returns). */
function Tile({ cameraId, name }: { cameraId: string; name: string }) {
  const { t } = useTranslation();
  return (
    <div data-testid={`wall-tile-${cameraId}`} style={{ position: 'relative', minWidth: 0 }}>
      <LivePlayer cameraId={cameraId} compact />
      <Flex justify="space-between" align="center" style={{ padding: '2px 4px' }}>
        <Typography.Text ellipsis>{name}</Typography.Text>
        <Button
          size="small"
          type="text"
          icon={<FullscreenOutlined />}
          aria-label={t('camera.wall.fullScreen', { name })}
          onClick={(event) =>
            void event.currentTarget.closest('[data-testid^="wall-tile-"]')?.requestFullscreen?.()
          }
        />
      </Flex>
    </div>
  );
}

/**
 * `/cameraScreen`: a wall of 1, 4, 9 or 16 live tiles of chosen cameras, remembered per user and
 * company on the server, so the night guard's wall comes back on any screen.
 */
export default function CameraScreenPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const saved = useCameraScreen();
  const cameras = useCameras({ pageNum: 1, pageSize: 100 });
  const save = useSaveScreen();
  const [size, setSize] = useState<Size>(4);
  const [chosen, setChosen] = useState<string[]>([]);
  useEffect(() => {
    if (!saved.data) return;
    setSize(saved.data.size);
    setChosen(saved.data.cameraIds);
  }, [saved.data]);
  const names = new Map((cameras.data?.list ?? []).map((c) => [c.id, c.name]));
  const columns = Math.sqrt(size);
  const shown = chosen.slice(0, size);
  return (
    <div>
      <Typography.Title level={2} data-testid="page-title">
        {t('menu.cameraScreen')}
      </Typography.Title>
      <Card>
        <Flex gap="middle" wrap align="center" style={{ marginBottom: 16 }}>
          <Segmented<Size>
            value={size}
            onChange={setSize}
            options={SCREEN_SIZES.map((n) => ({ value: n, label: t('camera.wall.tiles', { count: n }) }))}
            data-testid="wall-size"
          />
          <Select
            mode="multiple"
            maxCount={size}
            value={chosen}
            onChange={setChosen}
            aria-label={t('camera.wall.choose')}
            placeholder={t('camera.wall.choose')}
            options={(cameras.data?.list ?? []).map((c) => ({ value: c.id, label: c.name }))}
            optionFilterProp="label"
            style={{ minWidth: 200, flex: 1 }}
            data-testid="wall-cameras"
          />
          <Space>
            <Button
              icon={<SaveOutlined />}
              loading={save.isPending}
              data-testid="wall-save"
              onClick={() =>
                save
                  .mutateAsync({ size, cameraIds: shown })
                  .then(() => void message.success(t('camera.wall.saved')))
                  .catch(() => undefined)
              }
            >
              {t('camera.wall.save')}
            </Button>
          </Space>
        </Flex>
        {shown.length === 0 ? (
          <Typography.Paragraph type="secondary" data-testid="wall-empty">
            {t('camera.wall.empty')}
          </Typography.Paragraph>
        ) : (
          <div style={{ display: 'grid', gap: 8, gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}>
            {shown.map((id) => (
              <Tile key={id} cameraId={id} name={names.get(id) ?? ''} />
            ))}
          </div>
        )}
      </Card>
    </div>
  );
}
