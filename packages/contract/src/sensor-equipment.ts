/**
 * The equipment a sensor measures, as the monitor detail, the alarm detail and the map mode show
 * it (docs/API.md "Equipment beside monitors and alarm pauses"). While the equipment is under
 * service, disposed or inside a maintenance window, the sensor keeps recording but raises no
 * alarm, and open alarms of the sensor are no longer judged (they end when a person resolves them
 * or when judging resumes).
 */
export type AlarmPauseReason = 'underService' | 'disposed' | 'maintenance';

export interface SensorEquipmentView {
  id: string;
  name: string;
  serial: string;
  /** 1 in use, 2 under service, 3 disposed, 4 standby (EquipmentUseState). */
  useState: number;
  /** Why the sensor's alarms are paused now; null when they are not. */
  alarmsPaused: AlarmPauseReason | null;
  /** The end of the maintenance window that pauses them (epoch ms); null otherwise. */
  pausedUntil: number | null;
}

/** `/api/equipment/mapEquipment`: equipment placed beside the monitors whose sensors measure it. */
export interface MapEquipmentView extends SensorEquipmentView {
  typeName: string;
  region: string;
  address: string;
  /** The monitors (devices) measuring it that the caller may see, in id order. */
  deviceIds: string[];
}

/** At most this many equipment items on the map, like its monitors (MAP_DEVICE_LIMIT). */
export const MAP_EQUIPMENT_LIMIT = 2000;
