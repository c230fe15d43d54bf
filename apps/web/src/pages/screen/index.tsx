import { SCREEN_SENSOR_MAX } from '@coldchain/contract';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AlarmPanel } from './AlarmPanel';
import { DepartmentsPanel, FloorView, Kpis, TrendPanel } from './OverviewPanels';
import { Freshness, PanelState, ScreenGuard, ScreenHeader } from './ScreenFrame';
import { SensorWall } from './SensorWall';
import { useScreen, useScreenNotices } from './screen-data';

/*
 * The two data screens (docs/decisions.md "Data screens"):
 * - /screen: the organisation at a glance: counts by state, departments, the floor view, the
 *   live list of open alarms and the alarm trend (`?days=30` for 30 days instead of 7).
 * - /screen2: the wall of latest values of chosen sensors (`?sensors=<id>,<id>,...`, at most 48;
 *   none chosen: alarming sensors first) beside the live list of open alarms, with the notices.
 * Both are one viewport, dark, sized from the viewport (screen.css), for a wall or a TV.
 */

/** The sensors a wall shows, from its address: ids only, at most SCREEN_SENSOR_MAX. */
export function chosenSensors(value: string | null): string[] | undefined {
  const ids = (value ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => /^[1-9]\d{0,15}$/.test(id));
  return ids.length ? [...new Set(ids)].slice(0, SCREEN_SENSOR_MAX) : undefined;
}

function OverviewScreenBody() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const trendDays = params.get('days') === '30' ? 30 : 7;
  const { data, alarms, status, failed, updatedAt } = useScreen({ trendDays });
  return (
    <div className="cc-dash" data-testid="screen-overview">
      <ScreenHeader layout="overview" companyName={data?.companyName ?? ''} status={status} />
      {data ? <Kpis data={data} openAlarms={Math.max(data.openAlarmTotal, alarms.length)} /> : <div />}
      <main className="cc-dash-main" data-layout="overview">
        {data ? (
          <>
            <div className="cc-dash-column">
              <DepartmentsPanel departments={data.departments} />
              <TrendPanel trend={data.trend} />
            </div>
            <FloorView devices={data.devices} departments={data.departments} deviceCount={data.deviceCount} />
          </>
        ) : (
          <>
            <section className="cc-dash-panel">
              <PanelState kind={failed ? 'error' : 'loading'}>
                {failed ? t('screen.failed') : t('screen.loading')}
              </PanelState>
            </section>
            <section className="cc-dash-panel" />
          </>
        )}
        <AlarmPanel
          alarms={alarms}
          total={data?.openAlarmTotal ?? 0}
          loading={!data && !failed}
          failed={failed}
        />
      </main>
      <footer className="cc-dash-footer">
        <Freshness updatedAt={updatedAt} failed={failed} />
      </footer>
    </div>
  );
}

function NoticeTicker() {
  const { t } = useTranslation();
  const { data } = useScreenNotices();
  const list = data?.list ?? [];
  if (list.length === 0) return null;
  return (
    <>
      <strong>{t('screen.notices.title')}</strong>
      <ol data-testid="screen-notices">
        {list.map((notice) => (
          <li key={notice.id}>{notice.title}</li>
        ))}
      </ol>
    </>
  );
}

function WallScreenBody() {
  const [params] = useSearchParams();
  const sensorIds = chosenSensors(params.get('sensors'));
  const { data, alarms, status, failed, updatedAt } = useScreen({ trendDays: 7, sensorIds });
  return (
    <div className="cc-dash" data-testid="screen-wall">
      <ScreenHeader layout="wall" companyName={data?.companyName ?? ''} status={status} />
      {data ? <Kpis data={data} openAlarms={Math.max(data.openAlarmTotal, alarms.length)} /> : <div />}
      <main className="cc-dash-main" data-layout="wall">
        <SensorWall sensors={data?.sensors ?? []} loading={!data && !failed} failed={failed} />
        <AlarmPanel
          alarms={alarms}
          total={data?.openAlarmTotal ?? 0}
          loading={!data && !failed}
          failed={failed}
        />
      </main>
      <footer className="cc-dash-footer">
        <Freshness updatedAt={updatedAt} failed={failed} />
        <NoticeTicker />
      </footer>
    </div>
  );
}

export function OverviewScreen() {
  return (
    <ScreenGuard>
      <OverviewScreenBody />
    </ScreenGuard>
  );
}

export function SensorWallScreen() {
  return (
    <ScreenGuard>
      <WallScreenBody />
    </ScreenGuard>
  );
}
