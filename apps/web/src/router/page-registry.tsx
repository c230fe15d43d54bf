import type { ComponentType } from 'react';
import { Loading, lazyScreen } from './lazy-screen';

const NotFoundPage = lazyScreen(() => import('../pages/not-found'));

/**
 * Route name (spec section 2) -> screen. Pages load on first visit, so ECharts and the other
 * page code stay out of the bundle that renders the login and the layout (lazy-screen.tsx).
 */
const PAGES: Record<string, ComponentType> = {
  monitoringDevice: lazyScreen(() => import('../pages/devices')),
  monitoringDeviceDetail: lazyScreen(() => import('../pages/devices/detail')),
  monitoringDevicePay: lazyScreen(() => import('../pages/billing/pay')),
  monitoringDeviceRecovery: lazyScreen(() => import('../pages/billing/recovery')),
  // Expense management: message credit, its ledger and the top-up orders (issue 17).
  addedServices: lazyScreen(() => import('../pages/billing/expenses')),
  // Orders and payment, invoices (issue 17 items 2 and 4); the operator's side under /operator.
  serviceList: lazyScreen(() => import('../pages/billing/service-list')),
  applicationForInvoice: lazyScreen(() => import('../pages/billing/invoices')),
  orgApplicationForInvoice: lazyScreen(() => import('../pages/billing/invoices/department')),
  operatorInvoices: lazyScreen(() => import('../pages/operator/invoices')),
  operatorOrders: lazyScreen(() => import('../pages/operator/orders')),
  mapMode: lazyScreen(() => import('../pages/map')),
  equipment: lazyScreen(() => import('../pages/equipment')),
  equipmentType: lazyScreen(() => import('../pages/equipment/type')),
  equipmentDetail: lazyScreen(() => import('../pages/equipment/detail')),
  patrolInfo: lazyScreen(() => import('../pages/equipment/patrol')),
  operationReport: lazyScreen(() => import('../pages/operation-reports')),
  taskManage: lazyScreen(() => import('../pages/operation-reports/tasks')),
  openInterface: lazyScreen(() => import('../pages/open-interface')),
  OpenApi: lazyScreen(() => import('../pages/open-api')),
  OpenDevice: lazyScreen(() => import('../pages/open-api/OpenDevicePage')),
  customizedPushDevice: lazyScreen(() => import('../pages/push-docking')),
  customizedPushUrl: lazyScreen(() => import('../pages/push-docking/DeliveriesPage')),
  platformList: lazyScreen(() => import('../pages/platform-docking')),
  dockMonitor: lazyScreen(() => import('../pages/platform-docking/DockMonitorPage')),
  operatorDockingRequests: lazyScreen(() => import('../pages/operator/docking-requests')),
  addressManagement: lazyScreen(() => import('../pages/logistics/addresses')),
  // Cameras (issue 19): list, detail with the live view, attributes, platform accounts, the wall.
  camera: lazyScreen(() => import('../pages/camera')),
  cameraDetail: lazyScreen(() => import('../pages/camera/CameraDetailPage')),
  cameraAttr: lazyScreen(() => import('../pages/camera/CameraAttrPage')),
  platformAccount: lazyScreen(() => import('../pages/camera/PlatformAccountsPage')),
  cameraScreen: lazyScreen(() => import('../pages/camera/CameraScreenPage')),
  deliveryOrder: lazyScreen(() => import('../pages/logistics/delivery-orders')),
  receivingOrder: lazyScreen(() => import('../pages/logistics/receiving-orders')),
  groupingMode: lazyScreen(() => import('../pages/groups')),
  alarmInfo: lazyScreen(() => import('../pages/alarms')),
  alarmDetail: lazyScreen(() => import('../pages/alarms/detail')),
  // The same record opened from a monitor's detail; the menu highlights the monitors instead.
  deviceAlarmDetail: lazyScreen(() => import('../pages/alarms/detail')),
  alarmSetting: lazyScreen(() => import('../pages/alarms/setting')),
  loginLog: lazyScreen(() => import('../pages/audit/login-log')),
  operationLog: lazyScreen(() => import('../pages/audit/operation-log')),
  auditChain: lazyScreen(() => import('../pages/audit/chain')),
  organization: lazyScreen(() => import('../pages/org/organization')),
  departmentDetail: lazyScreen(() => import('../pages/org/department-detail')),
  myDepartmentDetail: lazyScreen(() => import('../pages/org/department-detail')),
  addSector: lazyScreen(() => import('../pages/org/add-sector')),
  myDepartment: lazyScreen(() => import('../pages/org/my-department')),
  roleManagement: lazyScreen(() => import('../pages/org/roles')),
  orgRoleManagement: lazyScreen(() => import('../pages/org/roles/org-roles')),
  personnelManagement: lazyScreen(() => import('../pages/org/personnel')),
  personalCenter: lazyScreen(() => import('../pages/personal-center')),
  sectorPersonnelManagement: lazyScreen(() => import('../pages/org/personnel/sector')),
  statistics: lazyScreen(() => import('../pages/statistics')),
  dataBackup: lazyScreen(() => import('../pages/reports/backup')),
  // The data centre's file list: `dataCenter` is the menu directory, `dataFiles` its first page.
  dataFiles: lazyScreen(() => import('../pages/reports/data-center')),
  // The operator console (issue 17 item 6); orders and invoices are the billing pages' own.
  operatorCompanies: lazyScreen(() => import('../pages/operator/companies')),
  operatorInventory: lazyScreen(() => import('../pages/operator/inventory')),
  operatorFeedback: lazyScreen(() => import('../pages/operator/feedback')),
};

/** Whether a menu entry has its screen (routes.test.tsx checks every entry of both menu trees). */
export function hasScreen(name: string): boolean {
  return name in PAGES;
}

/** The screen of a menu entry; a name no screen answers to (a newer server's menu) is "not found". */
export function PageFor({ name }: { name: string }) {
  const Page = PAGES[name] ?? NotFoundPage;
  return (
    <Loading>
      <Page />
    </Loading>
  );
}
