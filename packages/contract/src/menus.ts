import type { AuthTag, ServiceAuthTag } from './permissions';

/**
 * Menu entry types. Types 1 and 4 are shown in the sidebar (spec section 2); type 2 is a page
 * that is routed but hidden, highlighting `activeMenu`.
 */
export const MenuType = { Page: 1, HiddenPage: 2, Directory: 4 } as const;
export type MenuType = (typeof MenuType)[keyof typeof MenuType];

/** One entry of `/api/index/getUserPowers` → `menus`, as the console receives it. */
export interface MenuEntry {
  id: string;
  /** Parent id, `'0'` at the top level. */
  pid: string;
  /** Route name of spec section 2 (`monitoringDevice`, ...). */
  name: string;
  url: string;
  /** i18n key of the title; the texts are in `menuTitles`. */
  title: string;
  /** Ant Design icon name (`HomeOutlined`), empty for children. */
  icon: string;
  type: MenuType;
  /** A directory's first page. */
  redirect: string;
  /** For hidden pages: the url of the menu entry to highlight. */
  activeMenu: string;
  children: MenuEntry[];
}

/** The static definition the server filters by the caller's tags. */
export interface MenuDefinition {
  name: string;
  url: string;
  icon?: string;
  type: MenuType;
  /** Tag needed to see the entry; none means every member may. */
  authTag?: AuthTag;
  /** Supplier service needed for the entry. */
  serviceTag?: ServiceAuthTag;
  children?: MenuDefinition[];
}

const page = (name: string, url: string, authTag?: AuthTag): MenuDefinition => ({
  name,
  url,
  type: MenuType.Page,
  authTag,
});
const hidden = (name: string, url: string, authTag?: AuthTag): MenuDefinition => ({
  name,
  url,
  type: MenuType.HiddenPage,
  authTag,
});

/** The full menu tree of spec section 2. */
export const MENU_TREE: MenuDefinition[] = [
  { ...page('home', '/home'), icon: 'HomeOutlined' },
  {
    name: 'monitoring',
    url: '/monitoring',
    icon: 'DashboardOutlined',
    type: MenuType.Directory,
    authTag: 'monitoring:view',
    children: [
      page('mapMode', '/monitoring/mapMode', 'monitoring:view'),
      page('groupingMode', '/monitoring/groupingMode', 'monitoring:view'),
      {
        ...page('operationReport', '/monitoring/operationReport', 'report:view'),
        serviceTag: 'service:operationReport',
      },
      hidden('taskManage', '/monitoring/operationReport/taskManage', 'report:view'),
      hidden('patrolInfo', '/monitoring/operationReport/patrolInfo', 'report:view'),
    ],
  },
  {
    name: 'logistics',
    url: '/logistics',
    icon: 'CarOutlined',
    type: MenuType.Directory,
    authTag: 'logistics:view',
    serviceTag: 'service:logistics',
    children: [
      page('deliveryOrder', '/logistics/deliveryOrder', 'logistics:view'),
      page('receivingOrder', '/logistics/receivingOrder', 'logistics:view'),
      page('addressManagement', '/logistics/addressManagement', 'logistics:view'),
    ],
  },
  {
    name: 'deviceManagement',
    url: '/deviceManagement',
    icon: 'HddOutlined',
    type: MenuType.Directory,
    authTag: 'device:view',
    children: [
      page('monitoringDevice', '/deviceManagement/monitoringDevice', 'device:view'),
      hidden(
        'monitoringDeviceDetail',
        '/deviceManagement/monitoringDevice/monitoringDeviceDetail',
        'device:view',
      ),
      hidden('monitoringDevicePay', '/deviceManagement/monitoringDevice/monitoringDevicePay', 'device:topUp'),
      hidden(
        'monitoringDeviceRecovery',
        '/deviceManagement/monitoringDevice/monitoringDeviceRecovery',
        'device:topUp',
      ),
      hidden('openInterface', '/deviceManagement/monitoringDevice/openInterface', 'device:edit'),
      hidden('deviceAlarmDetail', '/deviceManagement/monitoringDevice/deviceAlarmDetail', 'alarm:view'),
      {
        ...page('equipment', '/deviceManagement/equipment', 'equipment:view'),
        serviceTag: 'service:equipment',
      },
      hidden('equipmentDetail', '/deviceManagement/equipment/equipmentDetail', 'equipment:view'),
      hidden('equipmentType', '/deviceManagement/equipment/equipmentType', 'equipment:edit'),
      { ...page('camera', '/deviceManagement/camera', 'camera:view'), serviceTag: 'service:camera' },
      hidden('cameraDetail', '/deviceManagement/camera/cameraDetail', 'camera:view'),
      hidden('cameraAttr', '/deviceManagement/camera/cameraAttr', 'camera:edit'),
      hidden('platformAccount', '/deviceManagement/camera/platformAccount', 'camera:edit'),
      // The camera wall (spec section 2 names /cameraScreen); hidden, opened from the camera list.
      { ...hidden('cameraScreen', '/cameraScreen', 'camera:view'), serviceTag: 'service:camera' },
    ],
  },
  {
    name: 'alarm',
    url: '/alarm',
    icon: 'AlertOutlined',
    type: MenuType.Directory,
    authTag: 'alarm:view',
    children: [
      page('alarmInfo', '/alarm/alarmInfo', 'alarm:view'),
      hidden('alarmDetail', '/alarm/alarmInfo/alarmDetail', 'alarm:view'),
      page('alarmSetting', '/alarm/alarmSetting', 'alarm:edit'),
    ],
  },
  {
    name: 'user',
    url: '/user',
    icon: 'TeamOutlined',
    type: MenuType.Directory,
    children: [
      page('organization', '/user/organization', 'org:view'),
      hidden('departmentDetail', '/user/organization/departmentDetail', 'org:view'),
      hidden('addSector', '/user/organization/addSector', 'org:edit'),
      hidden('orgRoleManagement', '/user/organization/orgRoleManagement', 'role:view'),
      hidden('sectorPersonnelManagement', '/user/organization/sectorPersonnelManagement', 'user:view'),
      hidden('orgApplicationForInvoice', '/user/organization/orgApplicationForInvoice', 'invoice:view'),
      page('personnelManagement', '/user/personnelManagement', 'user:view'),
      page('personalCenter', '/user/personalCenter'),
      page('roleManagement', '/user/roleManagement', 'role:view'),
      page('myDepartment', '/user/myDepartment'),
      hidden('myDepartmentDetail', '/user/myDepartment/departmentDetail'),
      page('addedServices', '/user/addedServices', 'billing:view'),
      hidden('serviceList', '/user/addedServices/serviceList', 'billing:view'),
      page('applicationForInvoice', '/user/applicationForInvoice', 'invoice:view'),
    ],
  },
  {
    name: 'audit',
    url: '/audit',
    icon: 'AuditOutlined',
    type: MenuType.Directory,
    authTag: 'audit:view',
    children: [
      page('loginLog', '/audit/loginLog', 'audit:view'),
      page('operationLog', '/audit/operationLog', 'audit:view'),
      // Chain verification of the operation log (the issue's `audit` screen; `audit` names the directory).
      page('auditChain', '/audit/auditChain', 'audit:view'),
    ],
  },
  {
    name: 'dataCenter',
    url: '/dataCenter',
    icon: 'BarChartOutlined',
    type: MenuType.Directory,
    children: [
      // Every generated file of the company (issue 15); the directory opens on it.
      page('dataFiles', '/dataCenter/dataFiles', 'report:view'),
      page('statistics', '/dataCenter/statistics', 'statistics:view'),
      { ...page('dataBackup', '/dataCenter/dataBackup', 'backup:view'), serviceTag: 'service:dataBackup' },
    ],
  },
  {
    name: 'interfaceDock',
    url: '/interfaceDock',
    icon: 'ApiOutlined',
    type: MenuType.Directory,
    authTag: 'docking:view',
    // Two services share the directory: the open API and platform docking (issue 17 item 5).
    children: [
      { ...page('OpenApi', '/interfaceDock/OpenApi', 'docking:view'), serviceTag: 'service:openApi' },
      { ...page('OpenDevice', '/interfaceDock/OpenDevice', 'docking:view'), serviceTag: 'service:openApi' },
      {
        ...page('platformList', '/interfaceDock/platformList', 'docking:view'),
        serviceTag: 'service:platformDock',
      },
      {
        ...hidden('dockMonitor', '/interfaceDock/platformList/dockMonitor', 'docking:view'),
        serviceTag: 'service:platformDock',
      },
    ],
  },
  {
    name: 'customizedPushDock',
    url: '/customizedPushDock',
    icon: 'SendOutlined',
    type: MenuType.Directory,
    authTag: 'docking:view',
    serviceTag: 'service:pushDock',
    children: [
      page('customizedPushDevice', '/customizedPushDock/customizedPushDevice', 'docking:view'),
      hidden(
        'customizedPushUrl',
        '/customizedPushDock/customizedPushDevice/customizedPushUrl',
        'docking:edit',
      ),
    ],
  },
];

/**
 * The operator area (issue 17), appended to a platform operator's menus after the company tree
 * (so the company entries keep their ids). It needs the user's operator flag, not a company right:
 * an operator in no company sees it too. orders and invoices are the billing console's pages.
 */
export const OPERATOR_MENU_TREE: MenuDefinition[] = [
  {
    name: 'operator',
    url: '/operator',
    icon: 'ShopOutlined',
    type: MenuType.Directory,
    children: [
      page('operatorCompanies', '/operator/companies'),
      page('operatorInventory', '/operator/inventory'),
      page('operatorOrders', '/operator/orders'),
      page('operatorInvoices', '/operator/invoices'),
      page('operatorDockingRequests', '/operator/docking-requests'),
      page('operatorFeedback', '/operator/feedback'),
    ],
  },
];

/** Titles of every menu entry, in both languages; the console and the audit trail use them. */
export const menuTitles: Record<string, { en: string; cn: string }> = {
  home: { en: 'Home', cn: '首页' },
  monitoring: { en: 'Monitoring', cn: '监控中心' },
  mapMode: { en: 'Map mode', cn: '地图模式' },
  groupingMode: { en: 'Grouping mode', cn: '分组模式' },
  operationReport: { en: 'Operation report', cn: '运维报告' },
  taskManage: { en: 'Task management', cn: '任务管理' },
  patrolInfo: { en: 'Patrol records', cn: '巡检记录' },
  logistics: { en: 'Logistics', cn: '物流管理' },
  deliveryOrder: { en: 'Delivery orders', cn: '发货单' },
  receivingOrder: { en: 'Receiving orders', cn: '收货单' },
  addressManagement: { en: 'Address management', cn: '地址管理' },
  deviceManagement: { en: 'Device management', cn: '设备管理' },
  monitoringDevice: { en: 'Monitors', cn: '监测设备' },
  monitoringDeviceDetail: { en: 'Monitor detail', cn: '设备详情' },
  monitoringDevicePay: { en: 'Monitor renewal', cn: '设备续费' },
  monitoringDeviceRecovery: { en: 'Data recovery', cn: '数据恢复' },
  openInterface: { en: 'Device interface', cn: '设备接口' },
  deviceAlarmDetail: { en: 'Device alarm detail', cn: '设备报警详情' },
  equipment: { en: 'Cold-chain equipment', cn: '冷链设备' },
  equipmentDetail: { en: 'Equipment detail', cn: '冷链设备详情' },
  equipmentType: { en: 'Equipment types', cn: '设备类型管理' },
  camera: { en: 'Cameras', cn: '摄像头' },
  cameraDetail: { en: 'Camera detail', cn: '摄像头详情' },
  cameraAttr: { en: 'Camera attributes', cn: '摄像头属性' },
  platformAccount: { en: 'Platform accounts', cn: '平台账号' },
  cameraScreen: { en: 'Camera wall', cn: '摄像头墙' },
  alarm: { en: 'Alarm management', cn: '报警管理' },
  alarmInfo: { en: 'Alarm records', cn: '报警记录' },
  alarmDetail: { en: 'Alarm detail', cn: '报警详情' },
  alarmSetting: { en: 'Alarm settings', cn: '报警设置' },
  user: { en: 'User centre', cn: '用户中心' },
  organization: { en: 'Organization', cn: '组织架构' },
  departmentDetail: { en: 'Department detail', cn: '部门详情' },
  addSector: { en: 'Add department', cn: '添加部门' },
  orgRoleManagement: { en: 'Department roles', cn: '部门角色管理' },
  sectorPersonnelManagement: { en: 'Department personnel', cn: '部门人员管理' },
  orgApplicationForInvoice: { en: 'Department invoices', cn: '部门发票管理' },
  personnelManagement: { en: 'Personnel management', cn: '人员管理' },
  personalCenter: { en: 'Personal centre', cn: '个人中心' },
  roleManagement: { en: 'Role management', cn: '角色管理' },
  myDepartment: { en: 'My department', cn: '我的部门' },
  myDepartmentDetail: { en: 'Department detail', cn: '部门详情' },
  addedServices: { en: 'Expense management', cn: '费用管理' },
  serviceList: { en: 'Top-up records', cn: '充值记录' },
  applicationForInvoice: { en: 'Invoice management', cn: '发票管理' },
  audit: { en: 'Audit trail', cn: '审计追踪' },
  loginLog: { en: 'Login log', cn: '登录日志' },
  operationLog: { en: 'Operation log', cn: '操作日志' },
  auditChain: { en: 'Integrity check', cn: '完整性校验' },
  dataCenter: { en: 'Data centre', cn: '数据中心' },
  dataFiles: { en: 'Report files', cn: '报表文件' },
  statistics: { en: 'Statistics', cn: '统计分析' },
  dataBackup: { en: 'Data report backup', cn: '数据报表备份' },
  interfaceDock: { en: 'Interface docking', cn: '接口对接' },
  OpenApi: { en: 'Open API', cn: '开放接口' },
  OpenDevice: { en: 'Open devices', cn: '开放设备' },
  platformList: { en: 'Platform docking', cn: '平台对接' },
  dockMonitor: { en: 'Docking monitor', cn: '对接监控' },
  customizedPushDock: { en: 'Push docking', cn: '推送对接' },
  customizedPushDevice: { en: 'Push-link docking', cn: '推送链接对接' },
  customizedPushUrl: { en: 'Push address management', cn: '推送地址管理' },
  operator: { en: 'Operator console', cn: '运营后台' },
  operatorCompanies: { en: 'Companies', cn: '企业管理' },
  operatorInventory: { en: 'Device inventory', cn: '设备库存' },
  operatorOrders: { en: 'Orders', cn: '订单审核' },
  operatorInvoices: { en: 'Invoices', cn: '发票处理' },
  operatorDockingRequests: { en: 'Docking requests', cn: '平台对接申请' },
  operatorFeedback: { en: 'Feedback received', cn: '意见反馈' },
};

/**
 * Turns the static tree into the entries a user receives: entries whose tag or service the user
 * lacks are dropped, directories left empty are dropped, ids and parent ids are assigned by
 * position so that they are stable for one version of the tree.
 */
export function buildMenuEntries(
  granted: ReadonlySet<string>,
  services: ReadonlySet<string>,
  tree: MenuDefinition[] = MENU_TREE,
  pid = '0',
): MenuEntry[] {
  const entries: MenuEntry[] = [];
  tree.forEach((def, index) => {
    if (def.authTag && !granted.has(def.authTag)) return;
    if (def.serviceTag && !services.has(def.serviceTag)) return;
    const id = pid === '0' ? String(index + 1) : `${pid}-${index + 1}`;
    const children = def.children ? buildMenuEntries(granted, services, def.children, id) : [];
    if (def.type === MenuType.Directory && children.length === 0) return;
    const firstPage = children.find((c) => c.type === MenuType.Page);
    entries.push({
      id,
      pid,
      name: def.name,
      url: def.url,
      title: `menu.${def.name}`,
      icon: def.icon ?? '',
      type: def.type,
      redirect: def.type === MenuType.Directory && firstPage ? firstPage.url : '',
      activeMenu: def.type === MenuType.HiddenPage ? parentUrlOf(def.url) : '',
      children,
    });
  });
  return entries;
}

/** A hidden page at `/a/b/c` highlights `/a/b`. */
function parentUrlOf(url: string): string {
  return url.slice(0, url.lastIndexOf('/')) || '/';
}
