import { CopyOutlined } from '@ant-design/icons';
import { App, Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';

/** Copies `text`; says so, or says 'Copy failed' (spec section 8) when the browser refuses. */
export function CopyButton({ text, testId }: { text: string; testId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(text);
      void message.success(t('map.openInterface.copied'));
    } catch {
      void message.error(t('map.openInterface.copyFailed'));
    }
  };
  return (
    <Tooltip title={t('map.openInterface.copy')}>
      <Button
        size="small"
        type="text"
        icon={<CopyOutlined />}
        onClick={copy}
        aria-label={t('map.openInterface.copy')}
        data-testid={testId}
      />
    </Tooltip>
  );
}
