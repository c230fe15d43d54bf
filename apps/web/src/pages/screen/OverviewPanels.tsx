import {
  DeviceState,
  SCREEN_DEVICE_MAX,
  type ScreenDepartment,
  type ScreenDevice,
  type ScreenOverview,
} from '@coldchain/contract';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { PanelState } from './ScreenFrame';

/** Device state colours (screen.css custom properties), the same on tiles, legend and figures. */
export const STATE_COLORS: Record<number, string> = {
  [DeviceState.Normal]: 'var(--dash-normal)',
  [DeviceState.Alarm]: 'var(--dash-alarm)',
  [DeviceState.Abnormal]: 'var(--dash-abnormal)',
  [DeviceState.Offline]: 'var(--dash-offline)',
  [DeviceState.Service]: 'var(--dash-service)',
  [DeviceState.Disposed]: 'var(--dash-disposed)',
};

function Kpi({
  label,
  value,
  color,
  testId,
}: {
  label: string;
  value: number;
  color: string;
  testId: string;
}) {
  return (
    <div className="cc-dash-kpi" style={{ '--kpi-color': color } as CSSProperties} data-testid={testId}>
      <div className="cc-dash-kpi-label">{label}</div>
      <div className="cc-dash-kpi-value">{value.toLocaleString()}</div>
    </div>
  );
}

/** Device and equipment counts by state, and the open alarms, across the top. */
export function Kpis({ data, openAlarms }: { data: ScreenOverview; openAlarms: number }) {
  const { t } = useTranslation();
  const states = data.deviceStates;
  return (
    <section className="cc-dash-kpis" aria-label={t('screen.kpi.devices')}>
      <Kpi
        label={t('screen.kpi.devices')}
        value={data.deviceCount}
        color="var(--dash-service)"
        testId="kpi-devices"
      />
      <Kpi
        label={t('screen.kpi.normal')}
        value={states['1'] ?? 0}
        color={STATE_COLORS[1]!}
        testId="kpi-normal"
      />
      <Kpi
        label={t('screen.kpi.alarm')}
        value={states['2'] ?? 0}
        color={STATE_COLORS[2]!}
        testId="kpi-alarm"
      />
      <Kpi
        label={t('screen.kpi.abnormal')}
        value={states['3'] ?? 0}
        color={STATE_COLORS[3]!}
        testId="kpi-abnormal"
      />
      <Kpi
        label={t('screen.kpi.offline')}
        value={states['4'] ?? 0}
        color={STATE_COLORS[4]!}
        testId="kpi-offline"
      />
      <Kpi
        label={t('screen.kpi.openAlarms')}
        value={openAlarms}
        color="var(--dash-alarm)"
        testId="kpi-open-alarms"
      />
      {data.equipmentStates ? (
        <>
          <Kpi
            label={t('screen.kpi.equipment')}
            value={data.equipmentStates.inUse}
            color="var(--dash-normal)"
            testId="kpi-equipment"
          />
          <Kpi
            label={t('screen.kpi.equipmentService')}
            value={data.equipmentStates.underService}
            color="var(--dash-service)"
            testId="kpi-equipment-service"
          />
        </>
      ) : null}
    </section>
  );
}

/** The organisation: each department with its monitors, how many are online and its open alarms. */
export function DepartmentsPanel({ departments }: { departments: ScreenDepartment[] }) {
  const { t } = useTranslation();
  return (
    <section className="cc-dash-panel" aria-labelledby="dash-departments" data-testid="screen-departments">
      <h2 id="dash-departments">{t('screen.departments.title')}</h2>
      {departments.length === 0 ? (
        <PanelState kind="empty">{t('screen.departments.empty')}</PanelState>
      ) : (
        <table className="cc-dash-table">
          <thead>
            <tr>
              <th scope="col">{t('screen.departments.name')}</th>
              <th scope="col" className="num">
                {t('screen.departments.devices')}
              </th>
              <th scope="col" className="num">
                {t('screen.departments.online')}
              </th>
              <th scope="col" className="num">
                {t('screen.departments.alarms')}
              </th>
            </tr>
          </thead>
          <tbody>
            {departments.map((d) => (
              <tr key={d.id} data-testid={`screen-department-${d.id}`}>
                <td style={{ paddingLeft: `${0.3 + Math.min(d.level - 1, 4) * 0.8}em` }} title={d.name}>
                  {d.name}
                </td>
                <td className="num">{d.deviceCount}</td>
                <td className="num">{d.onlineCount}</td>
                <td className={d.openAlarms > 0 ? 'num alarm' : 'num'}>{d.openAlarms}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** Up to this many monitors each tile carries its name; more are drawn as small squares. */
const NAMED_TILES_MAX = 60;

/**
 * The floor view: one room per department, one tile per monitor in its state's colour, alarming
 * ones pulsing. No map tiles to fetch, so it works on a closed network and reads from afar.
 */
export function FloorView({
  devices,
  departments,
  deviceCount,
}: {
  devices: ScreenDevice[];
  departments: ScreenDepartment[];
  deviceCount: number;
}) {
  const { t } = useTranslation();
  const rootId = departments.find((d) => d.pid === '0')?.id ?? null;
  const rooms = new Map<string, ScreenDevice[]>();
  for (const device of devices) {
    const room = device.departmentId ?? rootId ?? '';
    rooms.set(room, [...(rooms.get(room) ?? []), device]);
  }
  const names = new Map(departments.map((d) => [d.id, d.name]));
  const hidden = Math.max(0, deviceCount - devices.length);
  return (
    <section className="cc-dash-panel" aria-labelledby="dash-floor" data-testid="screen-floor">
      <h2 id="dash-floor">{t('screen.floor.title')}</h2>
      <div className="cc-dash-legend">
        {[1, 2, 3, 4, 5].map((state) => (
          <span key={state} style={{ '--state-color': STATE_COLORS[state] } as CSSProperties}>
            {t(`devices.state.${state}`)}
          </span>
        ))}
      </div>
      {devices.length === 0 ? (
        <PanelState kind="empty">{t('screen.floor.empty')}</PanelState>
      ) : (
        <div className="cc-dash-floor" data-named={devices.length <= NAMED_TILES_MAX}>
          {[...rooms.entries()].map(([room, list]) => (
            <div className="cc-dash-room" key={room || 'none'}>
              <h3>{names.get(room) ?? t('screen.floor.noDepartment')}</h3>
              <ul>
                {list.map((device) => {
                  const state = t(`devices.state.${device.state}`);
                  const label =
                    device.openAlarms > 0
                      ? t('screen.floor.deviceAlarms', { name: device.name, state, count: device.openAlarms })
                      : t('screen.floor.device', { name: device.name, state });
                  return (
                    <li
                      key={device.id}
                      className="cc-dash-device"
                      data-testid={`screen-device-${device.id}`}
                      data-alarm={device.openAlarms > 0 || device.state === DeviceState.Alarm}
                      style={{ '--state-color': STATE_COLORS[device.state] } as CSSProperties}
                      title={label}
                      aria-label={label}
                    >
                      <span className="cc-dash-device-name">{device.name}</span>
                      <span className="cc-dash-device-count">
                        {device.openAlarms > 0 ? device.openAlarms : ''}
                      </span>
                    </li>
                  );
                })}
              </ul>
            </div>
          ))}
        </div>
      )}
      {hidden > 0 && devices.length >= SCREEN_DEVICE_MAX ? (
        <p className="cc-dash-alarm-meta">{t('screen.floor.more', { count: hidden })}</p>
      ) : null}
    </section>
  );
}

/** Alarms raised and resolved per day as bars; each day names its figures for screen readers. */
export function TrendPanel({ trend }: { trend: ScreenOverview['trend'] }) {
  const { t } = useTranslation();
  const top = Math.max(1, ...trend.map((d) => Math.max(d.alarms, d.resolved)));
  const labelEvery = trend.length > 10 ? 5 : 1;
  return (
    <section className="cc-dash-panel cc-dash-trend" aria-labelledby="dash-trend" data-testid="screen-trend">
      <h2 id="dash-trend">{t('screen.trend.title', { count: trend.length })}</h2>
      <div className="cc-dash-legend">
        <span style={{ '--state-color': 'var(--dash-alarm)' } as CSSProperties}>
          {t('screen.trend.alarms')}
        </span>
        <span style={{ '--state-color': 'var(--dash-normal)' } as CSSProperties}>
          {t('screen.trend.resolved')}
        </span>
      </div>
      <ol className="cc-dash-bars">
        {trend.map((day, i) => (
          <li key={day.date} aria-label={t('screen.trend.day', day)} data-testid={`screen-trend-${day.date}`}>
            <div className="cc-dash-bar-pair">
              <span className="raised" style={{ height: `${(day.alarms / top) * 100}%` }} />
              <span className="resolved" style={{ height: `${(day.resolved / top) * 100}%` }} />
            </div>
            <span className="cc-dash-bar-label" aria-hidden="true">
              {i % labelEvery === 0 || i === trend.length - 1 ? day.date.slice(5) : '\u00a0'}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
