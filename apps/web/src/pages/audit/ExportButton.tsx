import { Button, Tooltip } from 'antd';
import { type ComponentProps, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCanExport } from '../../signature/SignPasswordField';
import { ExportModal } from './ExportModal';

/** The audit logs' export button with the dialog it opens. */
export function ExportButton({
  testId,
  ...dialog
}: { testId: string } & Omit<ComponentProps<typeof ExportModal>, 'open' | 'onClose'>) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  // The member's export flag (set by the company administrator): the server refuses anyway.
  const allowed = useCanExport();
  return (
    <>
      <Tooltip title={allowed ? undefined : t('common.signature.noExport')}>
        <Button onClick={() => setOpen(true)} disabled={!allowed} data-testid={testId}>
          {t('audit.export.button')}
        </Button>
      </Tooltip>
      <ExportModal {...dialog} open={open} onClose={() => setOpen(false)} />
    </>
  );
}
