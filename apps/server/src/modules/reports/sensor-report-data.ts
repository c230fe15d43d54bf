import type { SensorReportRequest } from '@coldchain/contract';
import { and, asc, eq, gte, isNotNull, lt, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idFromWire } from '../../lib/ids';
import { alarmRecords, alarmSettings } from '../alarms/alarms.table';
import { companies } from '../companies/companies.table';
import { devices, sensors } from '../devices/devices.table';
import { deviceIdsWhere } from '../org/access';
import { departments } from '../org/org.table';
import { getHistoryData } from '../telemetry/history.service';
import { users } from '../users/users.table';
import { timeOutOfRangeMs } from './report-figures';

const resolvers = alias(users, 'resolvers');

export interface SensorReportData {
  company: string;
  department: string;
  device: string;
  serial: string;
  sensor: string;
  unit: string;
  isTemperature: boolean;
  low: number | null;
  high: number | null;
  points: Array<[number, number]>;
  min: number | null;
  max: number | null;
  avg: number | null;
  mkt: number | null;
  outOfRangeMs: number;
  alarms: Array<{
    alarmTime: number;
    alarmType: string;
    level: number;
    content: { cn: string; en: string };
    resolveState: number;
    resolver: string | null;
    resolveTime: number | null;
    cause: string | null;
    action: string | null;
  }>;
}

/**
 * Everything a sensor report prints, read for a sensor the caller may see (`scope`, as
 * historyData): readings through the history service (hidden service-lapse readings stay out,
 * MKT with the configured activation energy), the alarm limits, and the alarms of the period.
 */
export async function loadSensorReportData(
  db: Db,
  scope: SQL,
  input: SensorReportRequest,
  activationEnergyKj: number,
): Promise<SensorReportData> {
  const sensorId = idFromWire(input.sensorId);
  if (!sensorId) throw new AppError('SENSOR_NOT_FOUND');
  const [facts] = await db
    .select({
      deviceId: devices.id,
      company: companies.name,
      department: departments.name,
      device: devices.name,
      serial: devices.serial,
      sensor: sensors.name,
      unit: sensors.unit,
      type: sensors.type,
    })
    .from(sensors)
    .innerJoin(devices, eq(devices.id, sensors.deviceId))
    .innerJoin(companies, eq(companies.id, sensors.companyId))
    .leftJoin(departments, eq(departments.id, devices.departmentId))
    .where(and(eq(sensors.id, sensorId), sql`${sensors.deviceId} in ${deviceIdsWhere(scope)}`));
  if (!facts) throw new AppError('SENSOR_NOT_FOUND');
  const history = await getHistoryData(
    db,
    scope,
    { sensorId: input.sensorId, startTime: input.startTime, endTime: input.endTime },
    activationEnergyKj,
  );
  // The allowed range: the over-limit rule of the sensor itself first, else of its device.
  const [limits] = await db
    .select({ min: alarmSettings.min, max: alarmSettings.max })
    .from(alarmSettings)
    .where(
      and(
        eq(alarmSettings.deviceId, facts.deviceId),
        eq(alarmSettings.alarmType, 'overLimit'),
        eq(alarmSettings.enabled, true),
        or(eq(alarmSettings.sensorId, sensorId), eq(alarmSettings.carrier, 'device')),
        or(isNotNull(alarmSettings.min), isNotNull(alarmSettings.max)),
      ),
    )
    .orderBy(sql`${alarmSettings.sensorId} is null`, asc(alarmSettings.level), asc(alarmSettings.id))
    .limit(1);
  const low = limits?.min ?? null;
  const high = limits?.max ?? null;
  const alarms = await db
    .select({ record: alarmRecords, resolver: resolvers.name })
    .from(alarmRecords)
    .leftJoin(resolvers, eq(resolvers.id, alarmRecords.resolverId))
    .where(
      and(
        eq(alarmRecords.sensorId, sensorId),
        gte(alarmRecords.alarmTime, new Date(input.startTime)),
        lt(alarmRecords.alarmTime, new Date(input.endTime)),
      ),
    )
    .orderBy(asc(alarmRecords.alarmTime), asc(alarmRecords.id));
  return {
    company: facts.company,
    department: facts.department ?? '',
    device: facts.device,
    serial: facts.serial,
    sensor: facts.sensor,
    unit: facts.unit,
    isTemperature: facts.type === 'temperature',
    low,
    high,
    points: history.points,
    min: history.min,
    max: history.max,
    avg: history.avg,
    mkt: history.mkt,
    outOfRangeMs: timeOutOfRangeMs(history.points, low, high, input.endTime),
    alarms: alarms.map(({ record, resolver }) => ({
      alarmTime: record.alarmTime.getTime(),
      alarmType: record.alarmType,
      level: record.level,
      content: record.content,
      resolveState: record.resolveState,
      resolver,
      resolveTime: record.resolveTime?.getTime() ?? null,
      cause: record.cause,
      action: record.action,
    })),
  };
}
