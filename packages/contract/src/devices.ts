import { z } from 'zod';
import { EpochMs } from './rules';
import type { SensorEquipmentView } from './sensor-equipment';

const Id = z.coerce.string().regex(/^[1-9]\d{0,15}$/, { error: 'rule.id' });

/** `/api/device/addDevice` (API.md): a serial from the device inventory. */
export const AddDeviceRequest = z.object({
  serial: z.string().trim().min(1).max(40),
  name: z.string().trim().min(1).max(100),
  departmentId: Id.optional(),
  groupId: Id.optional(),
});
export type AddDeviceRequest = z.infer<typeof AddDeviceRequest>;

export const DeviceIdRequest = z.object({ id: Id });
export type DeviceIdRequest = z.infer<typeof DeviceIdRequest>;

export const PageDevicesRequest = z.object({
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
  state: z.coerce.number().int().min(1).max(6).optional(),
  departmentId: Id.optional(),
  groupId: Id.optional(),
  keyword: z.string().trim().max(100).optional(),
});
export type PageDevicesRequest = z.infer<typeof PageDevicesRequest>;

/**
 * Channel state (spec section 4: 1 normal, 2 alarm, 3 abnormal, 4 offline, 5 service and
 * maintenance; "otherwise no setting"). Derived when a device is read, never stored: 0 is a
 * channel switched off, which is "no setting" to the spec.
 */
export const ChannelState = {
  Disabled: 0,
  Normal: 1,
  Alarm: 2,
  Abnormal: 3,
  Offline: 4,
  Service: 5,
} as const;
export type ChannelState = (typeof ChannelState)[keyof typeof ChannelState];

export interface SensorView {
  id: string;
  channel: number;
  name: string;
  type: string;
  unit: string;
  rangeMin: number;
  rangeMax: number;
  value: number | null;
  updateTime: number | null;
  /** Spec section 3 sensor remarks. */
  remark: string;
  /** A disabled channel's readings are stored but never judged for alarms (docs/decisions.md). */
  enabled: boolean;
  state: ChannelState;
  /** The equipment the sensor measures and whether its alarms are paused (detail call only). */
  equipment?: SensorEquipmentView | null;
}

/** `/api/device/editSensor`: a channel's name, remarks and whether it is in use. */
export const EditSensorRequest = z.object({
  id: Id,
  name: z.string().trim().min(1).max(50),
  remark: z.string().trim().max(255).default(''),
  enabled: z.boolean(),
});
export type EditSensorRequest = z.infer<typeof EditSensorRequest>;

export interface DeviceView {
  id: string;
  serial: string;
  name: string;
  model: string;
  version: string;
  state: number;
  departmentId: string | null;
  groupId: string | null;
  expireTime: number;
  lastSeenTime: number | null;
  uploadInterval: number;
  offlineJudgement: number;
  recordInterval: number;
  alarmVerifyInterval: number;
  hostAddress: string;
  subAddress: string;
  region: string;
  address: string;
  /** Latest GPS position (WGS-84) the device reported; null when it never did. */
  lng?: number | null;
  lat?: number | null;
  battery: number | null;
  power: string | null;
  mode: string;
  remark: string;
  sensors: SensorView[];
  /**
   * Whether the caller may change this device: the `device:edit` tag and the device within their
   * edit scope (department subtree or an edit grant). Set by the list and detail calls only.
   */
  editable?: boolean;
}

/** `/api/device/historyData` (API.md). */
export const HistoryDataRequest = z
  .object({
    sensorId: Id,
    startTime: EpochMs,
    endTime: EpochMs,
    maxPoints: z.coerce.number().int().min(2).max(100_000).optional(),
    /** Activation energy ΔH for the mean kinetic temperature, kJ/mol (USP <1079> default 83.144). */
    activationEnergy: z.coerce.number().min(10).max(300).optional(),
  })
  .refine((r) => r.endTime > r.startTime, { error: 'rule.timeRange', path: ['endTime'] });
export type HistoryDataRequest = z.infer<typeof HistoryDataRequest>;

export interface HistoryData {
  points: [number, number][];
  min: number | null;
  max: number | null;
  avg: number | null;
  mkt: number | null;
}

/**
 * Editing a monitor (spec sections 3 and 5). Intervals are in seconds; the alarm verification
 * interval may not exceed the data upload interval.
 */
export const EditDeviceRequest = z
  .object({
    id: Id,
    name: z.string().trim().min(1).max(100),
    departmentId: Id.nullable().optional(),
    groupId: Id.nullable().optional(),
    recordInterval: z.coerce.number().int().min(10).max(86_400),
    uploadInterval: z.coerce.number().int().min(10).max(86_400),
    alarmVerifyInterval: z.coerce.number().int().min(10).max(86_400),
    offlineJudgement: z.coerce.number().int().min(1).max(100),
    hostAddress: z.string().trim().max(40).default(''),
    subAddress: z.string().trim().max(40).default(''),
    remark: z.string().trim().max(255).default(''),
    region: z.string().trim().max(255).default(''),
    address: z.string().trim().max(255).default(''),
  })
  .refine((d) => d.alarmVerifyInterval <= d.uploadInterval, {
    error: 'rule.alarmVerifyInterval',
    path: ['alarmVerifyInterval'],
  });
export type EditDeviceRequest = z.infer<typeof EditDeviceRequest>;

export const SetRemarkRequest = z.object({ id: Id, remark: z.string().trim().max(255) });
export type SetRemarkRequest = z.infer<typeof SetRemarkRequest>;
