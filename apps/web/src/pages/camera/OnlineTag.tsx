import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** Online as the platform last said; unknown before it was asked. */
export function OnlineTag({ online, id }: { online: boolean | null; id: string }) {
  const { t } = useTranslation();
  const [color, key] =
    online === null ? ['default', 'unknown'] : online ? ['green', 'online'] : ['red', 'offline'];
  return (
    <Tag color={color} data-testid={`camera-online-${id}`}>
      {t(`camera.online.${key}`)}
    </Tag>
  );
}
