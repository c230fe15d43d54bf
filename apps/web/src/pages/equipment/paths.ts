/** Where the equipment screens live (contract menus: /deviceManagement/equipment...). */
export const EQUIPMENT_LIST_PATH = '/deviceManagement/equipment';
export const EQUIPMENT_TYPE_PATH = '/deviceManagement/equipment/equipmentType';
export const EQUIPMENT_DETAIL_PATH = '/deviceManagement/equipment/equipmentDetail';
export const PATROL_PATH = '/monitoring/operationReport/patrolInfo';

export function equipmentDetailUrl(id: string): string {
  return `${EQUIPMENT_DETAIL_PATH}?id=${encodeURIComponent(id)}`;
}

/** The address a printed label's QR code opens: the detail page on this console's own origin. */
export function equipmentDetailLink(id: string, origin = window.location.origin): string {
  return `${origin}${equipmentDetailUrl(id)}`;
}
