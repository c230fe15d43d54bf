/** The push docking screens (packages/contract menus.ts: `customizedPushDevice`, `customizedPushUrl`). */
export const PUSH_LIST_PATH = '/customizedPushDock/customizedPushDevice';
export const PUSH_DELIVERIES_PATH = '/customizedPushDock/customizedPushDevice/customizedPushUrl';

/** `customizedPushUrl` of one address: its deliveries. */
export function pushDeliveriesUrl(id: string): string {
  return `${PUSH_DELIVERIES_PATH}?id=${encodeURIComponent(id)}`;
}
