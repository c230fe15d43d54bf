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
  monitoringDevicePay: lazy(() => import('../pages/billing/pay')),
  monitoringDeviceRecovery: lazy(() => import('../pages/billing/recovery')),
  mapMode: lazy(() => import('../pages/map')),
  openInterface: lazy(() => import('../pages/open-interface')),
  groupingMode: lazy(() => import('../pages/groups')),
  alarmInfo: lazy(() => import('../pages/alarms')),
  alarmDetail: lazy(() => import('../pages/alarms/detail')),
  // The same record opened from a monitor's detail; the menu highlights the monitors instead.
  deviceAlarmDetail: lazy(() => import('../pages/alarms/detail')),
  alarmSetting: lazy(() => import('../pages/alarms/setting')),
  loginLog: lazy(() => import('../pages/audit/login-log')),
  operationLog: lazy(() => import('../pages/audit/operation-log')),
  auditChain: lazy(() => import('../pages/audit/chain')),
  organization: lazy(() => import('../pages/org/organization')),
  departmentDetail: lazy(() => import('../pages/org/department-detail')),
  myDepartmentDetail: lazy(() => import('../pages/org/department-detail')),
  addSector: lazy(() => import('../pages/org/add-sector')),
  myDepartment: lazy(() => import('../pages/org/my-department')),
  roleManagement: lazy(() => import('../pages/org/roles')),
  orgRoleManagement: lazy(() => import('../pages/org/roles/org-roles')),
  personnelManagement: lazy(() => import('../pages/org/personnel')),
  personalCenter: lazy(() => import('../pages/personal-center')),
  sectorPersonnelManagement: lazy(() => import('../pages/org/personnel/sector')),
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
