import type { ScreenSensor } from '@coldchain/contract';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../devices/format';
import { PanelState } from './ScreenFrame';

/** A value older than this is greyed: the device may have stopped sending. */
const STALE_MS = 30 * 60_000;

function valueText(value: number | null): string {
  if (value === null) return '-';
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/** The wall of latest values: one tile per sensor, alarming ones in red. */
export function SensorWall({
  sensors,
  loading,
  failed,
}: {
  sensors: ScreenSensor[];
  loading: boolean;
  failed: boolean;
}) {
  const { t } = useTranslation();
  const now = Date.now();
  return (
    <section className="cc-dash-panel" aria-labelledby="dash-sensors" data-testid="screen-sensors">
      <h2 id="dash-sensors">{t('screen.sensors.title')}</h2>
      {sensors.length === 0 ? (
        loading ? (
          <PanelState kind="loading">{t('screen.loading')}</PanelState>
        ) : failed ? (
          <PanelState kind="error">{t('screen.failed')}</PanelState>
        ) : (
          <PanelState kind="empty">{t('screen.sensors.empty')}</PanelState>
        )
      ) : (
        <ul className="cc-dash-wall">
          {sensors.map((sensor) => {
            const stale = sensor.updateTime === null || now - sensor.updateTime > STALE_MS;
            return (
              <li
                key={sensor.id}
                className="cc-dash-tile"
                data-testid={`screen-sensor-${sensor.id}`}
                data-alarm={sensor.alarming}
                data-stale={stale}
                title={stale && sensor.updateTime !== null ? t('screen.sensors.staleValue') : undefined}
              >
                <div className="cc-dash-tile-device">{sensor.deviceName}</div>
                <div className="cc-dash-tile-name">
                  {sensor.name}
                  {sensor.alarming ? ` · ${t('screen.sensors.alarming')}` : ''}
                </div>
                <div className="cc-dash-tile-value">
                  {valueText(sensor.value)}
                  <span className="cc-dash-tile-unit">{sensor.unit}</span>
                </div>
                <div className="cc-dash-tile-time">
                  {sensor.updateTime === null
                    ? t('screen.sensors.never')
                    : t('screen.sensors.updated', { time: formatTime(sensor.updateTime) })}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
