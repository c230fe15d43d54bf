import { Button } from 'antd';
import { type ComponentProps, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportModal } from './ExportModal';

/** The audit logs' export button with the dialog it opens. */
export function ExportButton({
  testId,
  ...dialog
}: { testId: string } & Omit<ComponentProps<typeof ExportModal>, 'open' | 'onClose'>) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid={testId}>
        {t('audit.export.button')}
      </Button>
      <ExportModal {...dialog} open={open} onClose={() => setOpen(false)} />
    </>
  );
}
