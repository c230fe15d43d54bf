/**
 * Permission tags (`authTags`) and supplier-enabled service tags (`serviceAuthTags`), spec
 * section 6. A tag reads `<module>:<right>`. The server grants them through roles (the accounts
 * issue); a company administrator holds every tag. The console hides menus, routes and buttons
 * whose tag the user lacks.
 */
export const AuthTags = [
  'home:view',
  'monitoring:view',
  'logistics:view',
  'logistics:edit',
  'device:view',
  'device:edit',
  'device:export',
  'device:topUp',
  'equipment:view',
  'equipment:edit',
  'camera:view',
  'camera:edit',
  'alarm:view',
  'alarm:edit',
  'alarm:resolve',
  'org:view',
  'org:edit',
  'user:view',
  'user:edit',
  'role:view',
  'role:edit',
  'billing:view',
  'billing:topUp',
  'invoice:view',
  'invoice:edit',
  'audit:view',
  'audit:export',
  'statistics:view',
  'docking:view',
  'docking:edit',
  'report:view',
  'report:edit',
  'backup:view',
  'backup:edit',
  'data:view',
] as const;
export type AuthTag = (typeof AuthTags)[number];

/**
 * Tags a route may require that are no company right: `operator` is the user's platform-operator
 * flag (the operator console). No role can hold them.
 */
export const PlatformTags = ['operator'] as const;
export type PlatformTag = (typeof PlatformTags)[number];

/** Services the supplier enables per company ("Some features need the supplier to enable them"). */
export const ServiceAuthTags = [
  'service:logistics',
  'service:equipment',
  'service:camera',
  'service:openApi',
  'service:pushDock',
  'service:operationReport',
  'service:dataBackup',
  'service:dataScreen',
  'service:platformDock',
  // Remote alarms, one service per channel: with a channel off, alarm rules cannot choose it and
  // the alarm messages of rules that still name it are not sent ("service off").
  'service:alarmEmail',
  'service:alarmSms',
  'service:alarmCall',
  'service:alarmWechat',
  'service:alarmWhatsapp',
] as const;
export type ServiceAuthTag = (typeof ServiceAuthTags)[number];

/** The service of each remote alarm channel (keys are the alarm channels of alarms.ts). */
export const ALARM_CHANNEL_SERVICES = {
  email: 'service:alarmEmail',
  sms: 'service:alarmSms',
  call: 'service:alarmCall',
  wechat: 'service:alarmWechat',
  whatsapp: 'service:alarmWhatsapp',
} as const satisfies Record<string, ServiceAuthTag>;

/**
 * What a new company starts with: every remote alarm channel (a company registering alone must
 * be able to receive alarms; what a message costs is the credit rules' business). The supplier
 * switches channels off and the other services on.
 */
export const DEFAULT_COMPANY_SERVICES: readonly ServiceAuthTag[] = Object.values(ALARM_CHANNEL_SERVICES);
