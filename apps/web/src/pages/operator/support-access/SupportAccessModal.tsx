import { SUPPORT_ACCESS_MAX_DAYS, type SupportAccessView } from '@coldchain/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, DatePicker, Flex, Modal, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { request } from '../../../api/request';
import { formatTime } from '../../reports/format';

const STATUS = '/api/company/supportAccessStatus';
const SET = '/api/company/setSupportAccess';
const KEY = ['company', 'supportAccess'];

/**
 * The company administrator lets the supplier's operators open the company's devices read-only
 * until a chosen moment (at most 30 days ahead), or closes that window at once. Both are written
 * to the company's operation log, as is every look an operator takes.
 */
export function SupportAccessModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const status = useQuery({ queryKey: KEY, queryFn: () => request<SupportAccessView>(STATUS), retry: false });
  const [until, setUntil] = useState<Dayjs | null>(() => dayjs().add(1, 'day'));
  const change = useMutation({
    mutationFn: (value: number | null) => request<SupportAccessView>(SET, { until: value }),
    onSuccess: (answer) => {
      client.setQueryData(KEY, answer);
      void message.success(t(answer.until ? 'operator.access.granted' : 'operator.access.revoked'));
    },
  });
  const open = status.data?.until ?? null;
  const latest = dayjs().add(SUPPORT_ACCESS_MAX_DAYS, 'day');

  return (
    <Modal open onCancel={onClose} footer={null} title={t('operator.access.title')}>
      <Typography.Paragraph>
        {t('operator.access.help', { days: SUPPORT_ACCESS_MAX_DAYS })}
      </Typography.Paragraph>
      <Alert
        type={open ? 'warning' : 'info'}
        showIcon
        title={
          open ? t('operator.access.openUntil', { time: formatTime(open) }) : t('operator.access.closed')
        }
        data-testid="support-access-state"
        style={{ marginBottom: 16 }}
      />
      <Flex gap="small" wrap align="center">
        <DatePicker
          showTime
          value={until}
          onChange={setUntil}
          disabledDate={(day) => day.isBefore(dayjs(), 'day') || day.isAfter(latest)}
          aria-label={t('operator.access.until')}
          data-testid="support-access-until"
        />
        <Button
          type="primary"
          disabled={!until}
          loading={change.isPending}
          onClick={() => until && change.mutate(until.valueOf())}
          data-testid="support-access-grant"
        >
          {t('operator.access.grant')}
        </Button>
        {open && (
          <Button danger onClick={() => change.mutate(null)} data-testid="support-access-revoke">
            {t('operator.access.revoke')}
          </Button>
        )}
      </Flex>
    </Modal>
  );
}
