import { Spin } from 'antd';
import { type ComponentType, lazy, Suspense } from 'react';
import { ComingSoonPage } from '../pages/coming-soon';

/**
 * Route name (spec section 2) -> screen. Pages load on first visit, so ECharts and the other
 * page code stay out of the bundle that renders the login and the layout.
 */
const PAGES: Record<string, ComponentType> = {
  monitoringDevice: lazy(() => import('../pages/devices')),
  monitoringDeviceDetail: lazy(() => import('../pages/devices/detail')),
  alarmInfo: lazy(() => import('../pages/alarms')),
  alarmDetail: lazy(() => import('../pages/alarms/detail')),
  alarmSetting: lazy(() => import('../pages/alarms/setting')),
};

/** The screen of a menu entry, or the coming-soon page while its issue is open. */
export function PageFor({ name, titleKey }: { name: string; titleKey: string }) {
  const Page = PAGES[name];
  if (!Page) return <ComingSoonPage titleKey={titleKey} />;
  return (
    <Suspense fallback={<Spin />}>
      <Page />
    </Suspense>
  );
}
