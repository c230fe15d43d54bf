/** The platform docking screens (packages/contract menus.ts: `platformList`, `dockMonitor`). */
export const PLATFORM_LIST_PATH = '/interfaceDock/platformList';
export const DOCK_MONITOR_PATH = '/interfaceDock/platformList/dockMonitor';

/** `dockMonitor` of one docking: its monitors and what went to the platform. */
export function dockMonitorUrl(id: string): string {
  return `${DOCK_MONITOR_PATH}?id=${encodeURIComponent(id)}`;
}
