import { DatePicker } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';

/** The audit logs' period filter; a half-chosen period counts as none. */
export function PeriodFilter({
  value,
  onChange,
  testId,
}: {
  value: [Dayjs, Dayjs] | null;
  onChange: (period: [Dayjs, Dayjs] | null) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <DatePicker.RangePicker
      showTime
      format="YYYY-MM-DD HH:mm:ss"
      placeholder={[t('audit.filter.start'), t('audit.filter.end')]}
      value={value}
      onChange={(period) => onChange(period?.[0] && period[1] ? [period[0], period[1]] : null)}
      data-testid={testId}
    />
  );
}
