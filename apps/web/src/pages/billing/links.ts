/** Where the renewal and recovery pages live; the device list and detail link here with `?ids=`. */
export const PAY_PATH = '/deviceManagement/monitoringDevice/monitoringDevicePay';
export const RECOVERY_PATH = '/deviceManagement/monitoringDevice/monitoringDeviceRecovery';

export function payUrl(deviceIds: string[]): string {
  return deviceIds.length > 0 ? `${PAY_PATH}?ids=${deviceIds.map(encodeURIComponent).join(',')}` : PAY_PATH;
}

export function recoveryUrl(deviceIds: string[]): string {
  return deviceIds.length > 0
    ? `${RECOVERY_PATH}?ids=${deviceIds.map(encodeURIComponent).join(',')}`
    : RECOVERY_PATH;
}

/** The `?ids=1,2` of the page's address. */
export function idsFromSearch(params: URLSearchParams): string[] {
  return (params.get('ids') ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => /^[1-9]\d{0,15}$/.test(id));
}

/** Expense management (menu `addedServices`): the message credit, its ledger and the orders. */
export const EXPENSES_PATH = '/user/addedServices';

/** The company's orders (menu `serviceList`), where a pending order is paid. */
export const SERVICE_LIST_PATH = '/user/addedServices/serviceList';
