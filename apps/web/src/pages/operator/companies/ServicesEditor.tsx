import { type OperatorCompanyView, ServiceAuthTags } from '@coldchain/contract';
import { Button, DatePicker, Flex, Switch, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSetServices } from '../api';

interface Row {
  on: boolean;
  /** Last day the service is on (it ends at that day's midnight); null = no end. */
  until: Dayjs | null;
}

const nameOf = (tag: string) => tag.replace(/^service:/, '');

/**
 * The company's supplier-enabled services: each on or off, with an optional last day. Saving sends
 * the whole set (a service left off is off); a past day cannot be picked.
 */
export function ServicesEditor({ company }: { company: OperatorCompanyView }) {
  const { t } = useTranslation();
  const save = useSetServices();
  const [rows, setRows] = useState<Record<string, Row>>(() =>
    Object.fromEntries(
      ServiceAuthTags.map((tag) => {
        const current = company.services.find((s) => s.tag === tag);
        const until = current?.expireTime ? dayjs(current.expireTime).subtract(1, 'day') : null;
        return [tag, { on: current !== undefined, until }];
      }),
    ),
  );
  const change = (tag: string, patch: Partial<Row>) =>
    setRows((all) => ({ ...all, [tag]: { ...all[tag]!, ...patch } }));

  const submit = () =>
    save.mutate({
      id: company.id,
      services: ServiceAuthTags.filter((tag) => rows[tag]!.on).map((tag) => ({
        tag,
        expireTime: rows[tag]!.until ? rows[tag]!.until!.add(1, 'day').startOf('day').valueOf() : null,
      })),
    });

  return (
    <div data-testid="operator-services">
      <Typography.Title level={5}>{t('operator.services.title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('operator.services.help')}</Typography.Paragraph>
      {ServiceAuthTags.map((tag) => {
        const row = rows[tag]!;
        const state = company.services.find((s) => s.tag === tag);
        return (
          <Flex key={tag} gap="small" align="center" wrap style={{ marginBottom: 8 }}>
            <Switch
              checked={row.on}
              onChange={(on) => change(tag, { on })}
              aria-label={t(`operator.service.${nameOf(tag)}`)}
              data-testid={`service-switch-${nameOf(tag)}`}
            />
            <span style={{ minWidth: 160 }}>{t(`operator.service.${nameOf(tag)}`)}</span>
            <DatePicker
              value={row.until}
              disabled={!row.on}
              onChange={(until) => change(tag, { until })}
              disabledDate={(day) => day.isBefore(dayjs(), 'day')}
              placeholder={t('operator.services.noEnd')}
              aria-label={t('operator.services.until', { service: t(`operator.service.${nameOf(tag)}`) })}
              data-testid={`service-until-${nameOf(tag)}`}
            />
            {state && !state.active && (
              <Typography.Text type="danger">{t('operator.services.expired')}</Typography.Text>
            )}
          </Flex>
        );
      })}
      <Button type="primary" onClick={submit} loading={save.isPending} data-testid="services-save">
        {t('operator.services.save')}
      </Button>
    </div>
  );
}
