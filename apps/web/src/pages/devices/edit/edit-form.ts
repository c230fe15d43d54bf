import type { DepartmentGroups, DeviceView, EditDeviceRequest } from '@coldchain/contract';

/**
 * Limits of EditDeviceRequest in the contract, repeated here so the form can say them before the
 * server does (the server stays the judge).
 */
export const EDIT_LIMITS = {
  nameMax: 100,
  intervalMin: 10,
  intervalMax: 86_400,
  offlineMin: 1,
  offlineMax: 100,
  addressPartMax: 40,
  textMax: 255,
} as const;

/** The form's fields, named as the request names them, so server messages map back to them. */
export const EDIT_FIELDS = [
  'name',
  'departmentId',
  'groupId',
  'recordInterval',
  'uploadInterval',
  'alarmVerifyInterval',
  'offlineJudgement',
  'hostAddress',
  'subAddress',
  'remark',
  'region',
  'address',
] as const;
export type EditField = (typeof EDIT_FIELDS)[number];

export interface EditValues {
  name: string;
  departmentId?: string;
  groupId?: string;
  recordInterval: number;
  uploadInterval: number;
  alarmVerifyInterval: number;
  offlineJudgement: number;
  hostAddress: string;
  subAddress: string;
  remark: string;
  region: string;
  address: string;
}

/**
 * Host and sub-address only mean something on PCC models (spec section 3, "PCC-specific"). The
 * inventory names those models with a `PCC` prefix (docs/decisions.md).
 */
export function isPccModel(model: string): boolean {
  return /^pcc/i.test(model.trim());
}

export function toEditValues(device: DeviceView): EditValues {
  return {
    name: device.name,
    departmentId: device.departmentId ?? undefined,
    groupId: device.groupId ?? undefined,
    recordInterval: device.recordInterval,
    uploadInterval: device.uploadInterval,
    alarmVerifyInterval: device.alarmVerifyInterval,
    offlineJudgement: device.offlineJudgement,
    hostAddress: device.hostAddress,
    subAddress: device.subAddress,
    remark: device.remark,
    region: device.region,
    address: device.address,
  };
}

/**
 * The edit request. The upload interval is the device's own (changed only by a parameter push),
 * so it is sent back unchanged; a device without a department keeps none unless one is picked;
 * no group picked means "in no group".
 */
export function toEditRequest(device: DeviceView, values: EditValues): EditDeviceRequest {
  const pcc = isPccModel(device.model);
  return {
    id: device.id,
    name: values.name.trim(),
    ...(values.departmentId ? { departmentId: values.departmentId } : {}),
    groupId: values.groupId ?? null,
    recordInterval: values.recordInterval,
    uploadInterval: device.uploadInterval,
    alarmVerifyInterval: values.alarmVerifyInterval,
    offlineJudgement: values.offlineJudgement,
    hostAddress: pcc ? (values.hostAddress ?? '').trim() : device.hostAddress,
    subAddress: pcc ? (values.subAddress ?? '').trim() : device.subAddress,
    remark: (values.remark ?? '').trim(),
    region: (values.region ?? '').trim(),
    address: (values.address ?? '').trim(),
  };
}

/**
 * The field a server message is about. Server messages name the field by the same label the form
 * shows (both sides use one wording per language), so the label found first in the message wins;
 * on a tie the longer label does ("Sub-address" before a shorter label inside it).
 */
export function fieldOfMessage(message: string, labels: Record<EditField, string>): EditField | null {
  const text = message.toLowerCase();
  let best: { field: EditField; at: number; length: number } | null = null;
  for (const field of EDIT_FIELDS) {
    const label = labels[field].toLowerCase();
    const at = label ? text.indexOf(label) : -1;
    if (at < 0) continue;
    if (!best || at < best.at || (at === best.at && label.length > best.length)) {
      best = { field, at, length: label.length };
    }
  }
  return best?.field ?? null;
}

export interface DepartmentOption {
  value: string;
  title: string;
  children: DepartmentOption[];
}

/** Departments of the caller's scope as a tree by `pid` (the roots are those without a parent here). */
export function departmentTree(departments: DepartmentGroups[], pid = '0'): DepartmentOption[] {
  return departments
    .filter((d) => d.pid === pid || (pid === '0' && !departments.some((p) => p.id === d.pid)))
    .map((d) => ({ value: d.id, title: d.name, children: departmentTree(departments, d.id) }));
}
