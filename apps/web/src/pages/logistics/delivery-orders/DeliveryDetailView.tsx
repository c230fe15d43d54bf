import type { DeliveryAddressView, DeliveryDetail } from '@coldchain/contract';
import { Alert, Card, Col, Descriptions, Image, List, Row, Statistic, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { READABLE_TEXT } from '../../../components/text-colors';
import { formatTime } from '../../devices/format';
import { RouteSketch } from './RouteSketch';
import { TripChart } from './TripChart';

/** Preset tag colours per state; their text uses the readable shades (WCAG AA on the tag). */
const STATE_COLORS: Record<number, string | undefined> = { 2: 'blue', 3: 'orange', 4: 'green', 5: 'red' };

export function DeliveryStateTag({ state }: { state: number }) {
  const { t } = useTranslation();
  const color = STATE_COLORS[state];
  return (
    <Tag
      color={color}
      style={color ? { color: READABLE_TEXT[color] } : undefined}
      data-testid="delivery-state"
    >
      {t(`logistics.delivery.state.${state}`)}
    </Tag>
  );
}

export const addressLine = (a: DeliveryAddressView) =>
  `${a.name} · ${a.contact} ${a.phone} · ${[a.region, a.address].filter(Boolean).join(' ')}`;

/** How a receipt was signed, as the receiver reads it. */
const METHOD_KEYS = {
  password: 'logistics.receiving.methodPassword',
  account: 'logistics.receiving.methodAccount',
  drawn: 'logistics.receiving.methodDrawn',
} as const;

const range = (min: number | null, max: number | null) => `${min ?? '-'} .. ${max ?? '-'}`;

/**
 * What the sender, the receiving company and a receipt link's reader see of one order: the
 * consignment, the parties, the handover times, the trip's summary (min, max, MKT, minutes out of
 * range, excursions, gaps), the receipt with its photo, the readings of each logger in the window,
 * the route each recorded and, while it travels, where the loggers are. `actions` are the
 * caller's buttons.
 */
export function DeliveryDetailView({ detail, actions }: { detail: DeliveryDetail; actions?: ReactNode }) {
  const { t } = useTranslation();
  const f = (key: string) => t(`logistics.delivery.field.${key}`);
  const s = detail.summary;
  const temperature = (v: number | null) => (v === null ? '-' : `${v} °C`);
  return (
    <div data-testid="delivery-detail">
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 1, md: 2 }}
        bordered
        title={
          <span>
            {detail.orderNo} <DeliveryStateTag state={detail.state} />
          </span>
        }
        extra={actions}
        items={[
          { key: 'senderCompany', label: f('senderCompany'), children: detail.senderCompany },
          { key: 'receiverCompany', label: f('receiverCompany'), children: detail.receiverCompany ?? '-' },
          { key: 'sender', label: f('sender'), children: addressLine(detail.sender) },
          { key: 'receiver', label: f('receiver'), children: addressLine(detail.receiver) },
          {
            key: 'goods',
            label: f('goods'),
            span: 'filled',
            children: detail.goods
              .map((g) => `${g.name} × ${g.quantity}${g.batch ? ` (${g.batch})` : ''}`)
              .join('; '),
          },
          { key: 'tempRange', label: f('tempRange'), children: range(detail.tempMin, detail.tempMax) },
          {
            key: 'humidityRange',
            label: f('humidityRange'),
            children:
              detail.humidityMin === null && detail.humidityMax === null
                ? '-'
                : range(detail.humidityMin, detail.humidityMax),
          },
          { key: 'carrier', label: f('carrier'), children: detail.carrier || '-' },
          { key: 'vehicle', label: f('vehicle'), children: detail.vehicle || '-' },
          {
            key: 'plannedDeparture',
            label: f('plannedDeparture'),
            children: formatTime(detail.plannedDeparture),
          },
          { key: 'departTime', label: f('departTime'), children: formatTime(detail.departTime) },
          { key: 'plannedArrival', label: f('plannedArrival'), children: formatTime(detail.plannedArrival) },
          { key: 'arriveTime', label: f('arriveTime'), children: formatTime(detail.arriveTime) },
          { key: 'monitors', label: f('monitors'), children: detail.serials.join(', ') },
          { key: 'remarks', label: f('remarks'), children: detail.remarks || '-' },
        ]}
      />
      {detail.receipt && (
        <Alert
          style={{ marginTop: 12 }}
          type={detail.receipt.accepted ? 'success' : 'error'}
          showIcon
          data-testid="delivery-receipt"
          title={t('logistics.receiving.receiptLine', {
            decision: t(
              detail.receipt.accepted ? 'logistics.receiving.accept' : 'logistics.receiving.reject',
            ),
            name: detail.receipt.signedBy,
            time: formatTime(detail.receipt.time),
          })}
          description={
            <>
              {[t(METHOD_KEYS[detail.receipt.method]), detail.receipt.remarks].filter(Boolean).join(' · ')}
              {detail.receipt.photo && (
                <div style={{ marginTop: 8 }} data-testid="delivery-receipt-photo">
                  <Image
                    src={detail.receipt.photo}
                    alt={t('logistics.receiving.photo')}
                    width={160}
                    style={{ objectFit: 'cover' }}
                  />
                </div>
              )}
            </>
          }
        />
      )}
      <Card size="small" title={t('logistics.delivery.summary.title')} style={{ marginTop: 12 }}>
        {s.readings === 0 ? (
          <Typography.Text type="secondary">{t('logistics.delivery.summary.noReadings')}</Typography.Text>
        ) : (
          <>
            <Row gutter={[12, 12]} data-testid="delivery-summary">
              <Col xs={12} md={4}>
                <Statistic title={t('logistics.delivery.summary.min')} value={temperature(s.min)} />
              </Col>
              <Col xs={12} md={4}>
                <Statistic title={t('logistics.delivery.summary.max')} value={temperature(s.max)} />
              </Col>
              <Col xs={12} md={4}>
                <Statistic title={t('logistics.delivery.summary.mkt')} value={temperature(s.mkt)} />
              </Col>
              <Col xs={12} md={4}>
                <Statistic title={t('logistics.delivery.summary.minutesOut')} value={s.minutesOutOfRange} />
              </Col>
              <Col xs={12} md={4}>
                <Statistic title={t('logistics.delivery.summary.excursions')} value={s.excursions} />
              </Col>
              <Col xs={12} md={4}>
                <Statistic title={t('logistics.delivery.summary.gaps')} value={s.gaps.length} />
              </Col>
            </Row>
            {s.excursionList.length + s.gaps.length > 0 && (
              <List
                size="small"
                style={{ marginTop: 8 }}
                dataSource={[
                  ...s.excursionList.map((e) =>
                    t('logistics.delivery.summary.excursion', {
                      ...e,
                      start: formatTime(e.start),
                      end: formatTime(e.end),
                    }),
                  ),
                  ...s.gaps.map((g) =>
                    t('logistics.delivery.summary.gap', {
                      ...g,
                      start: formatTime(g.start),
                      end: formatTime(g.end),
                    }),
                  ),
                ]}
                renderItem={(line) => <List.Item>{line}</List.Item>}
              />
            )}
          </>
        )}
      </Card>
      {detail.state !== 2 && detail.monitors.some((m) => (m.route?.length ?? 0) > 0) && (
        <Card size="small" title={t('logistics.delivery.route')} style={{ marginTop: 12 }}>
          <RouteSketch detail={detail} />
        </Card>
      )}
      {detail.state === 2 && (
        <Card size="small" title={t('logistics.delivery.live')} style={{ marginTop: 12 }}>
          <RouteSketch detail={detail} />
          <List
            size="small"
            dataSource={detail.monitors}
            renderItem={(m) => {
              const latest = m.sensors.map((x) => x.points.at(-1)).filter(Boolean);
              return (
                <List.Item data-testid={`delivery-live-${m.serial}`}>
                  {m.serial} {m.name} · {latest.map((p) => `${p![1]}`).join(' / ') || '-'} ·{' '}
                  {m.lng !== null && m.lat !== null
                    ? `${m.lng.toFixed(4)}, ${m.lat.toFixed(4)}`
                    : t('logistics.delivery.noPosition')}{' '}
                  · {t('logistics.delivery.lastSeen', { time: formatTime(m.lastSeen) })}
                </List.Item>
              );
            }}
          />
        </Card>
      )}
      {detail.monitors.some((m) => m.sensors.some((x) => x.points.length > 0)) && (
        <Card size="small" style={{ marginTop: 12 }}>
          {detail.monitors.flatMap((m) =>
            m.sensors.map((sensor) => (
              <TripChart
                key={`${m.serial}-${sensor.channel}`}
                serial={m.serial}
                sensor={sensor}
                low={
                  sensor.type === 'temperature'
                    ? detail.tempMin
                    : sensor.type === 'humidity'
                      ? detail.humidityMin
                      : null
                }
                high={
                  sensor.type === 'temperature'
                    ? detail.tempMax
                    : sensor.type === 'humidity'
                      ? detail.humidityMax
                      : null
                }
              />
            )),
          )}
        </Card>
      )}
    </div>
  );
}
