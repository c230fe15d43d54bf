/** Where a monitor's detail page lives; other pages (grouping mode) link to it. */
export const DETAIL_PATH = '/deviceManagement/monitoringDevice/monitoringDeviceDetail';

export function detailUrl(id: string): string {
  return `${DETAIL_PATH}?id=${encodeURIComponent(id)}`;
}
