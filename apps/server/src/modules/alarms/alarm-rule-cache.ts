import type { UpRecord } from '@coldchain/contract';
import type { IngestJob } from '../ingest/write-batch';
import type { EvaluationContext } from './alarm-context';
import { classify, type ValueRule } from './alarm-engine';
import { type LimitFields, limitsOf, VALUE_TYPES } from './alarm-rules';

/** The limits of each value setting that applies to a sensor, worked out once (limitsOf). */
type SensorLimits = Pick<ValueRule, 'min' | 'max' | 'preMin' | 'preMax'>[];

/** What the quiet pass needs of a device's rules, kept between batches. */
export interface DeviceRules {
  companyId: number;
  serial: string;
  /** The enabled settings as the database wrote them when these rules were read (settingsSignature). */
  signature: string;
  /** Enabled value settings (overLimit, preAlarm, abnormal): what a reading is judged by. */
  value: (LimitFields & { id: number; sensorId: number | null })[];
  /**
   * Enabled sensors, their measuring ranges and the limits every reading of theirs is checked
   * against (computed here, not per reading: an `abnormal` setting's range limits cost a
   * `toPrecision` each, 5 % of the main thread under one-reading ingest). Readings of other
   * sensors are never judged.
   */
  sensors: Map<number, { rangeMin: number; rangeMax: number; limits: SensorLimits }>;
  /** An engine state of the device was not normal after its last full evaluation. */
  unsettled: boolean;
}

/** Far above the devices one server ingests for; a bound on memory, not a working size. */
const MAX_DEVICES = 250_000;

/**
 * Each device's alarm rules, in memory, so that the common reading (in range, from a device with
 * no excursion under way) is judged without loading the device's context every batch
 * (alarm-quiet-pass.ts). Filled by every full evaluation (which reads the context anyway) and
 * dropped when settings, sensors or the device change in this process. The cache is never
 * trusted alone: the quiet pass checks, inside the batch's transaction, that the settings'
 * signature, the sensors' switches and the engine states are still what the rules assume, and
 * any device where they are not is evaluated in full. A change made by another server process
 * is therefore seen at the next batch, not after a time limit.
 */
export class AlarmRuleCache {
  private readonly devices = new Map<number, DeviceRules>();
  private readonly bySerial = new Map<string, number>();

  get(deviceId: number): DeviceRules | undefined {
    return this.devices.get(deviceId);
  }

  get size(): number {
    return this.devices.size;
  }

  /** Keeps the rules of every device of a full evaluation's context. */
  remember(context: EvaluationContext, unsettled: Set<number>) {
    for (const device of context.devices.values()) {
      const sensors: DeviceRules['sensors'] = new Map();
      // Context sensors are the enabled ones, of every device judged.
      const rules: DeviceRules = {
        companyId: device.companyId,
        serial: device.serial,
        signature: context.signatures.get(device.id) ?? '-',
        value: context.settings
          .filter((s) => s.deviceId === device.id && VALUE_TYPES.includes(s.alarmType as never))
          .map((s) => ({
            id: s.id,
            sensorId: s.sensorId,
            alarmType: s.alarmType,
            min: s.min,
            max: s.max,
            preMin: s.preMin,
            preMax: s.preMax,
          })),
        sensors,
        unsettled: unsettled.has(device.id),
      };
      this.devices.delete(device.id);
      if (this.devices.size >= MAX_DEVICES) this.forget(this.devices.keys().next().value!);
      this.devices.set(device.id, rules);
      this.bySerial.set(device.serial, device.id);
    }
    for (const [sensorId, sensor] of context.sensors) {
      const deviceId = context.sensorDevices.get(sensorId);
      const rules = deviceId === undefined ? undefined : this.devices.get(deviceId);
      if (!rules) continue;
      const limits = rules.value
        .filter((setting) => setting.sensorId === null || setting.sensorId === sensorId)
        .map((setting) => limitsOf(setting, sensor));
      rules.sensors.set(sensorId, { rangeMin: sensor.rangeMin, rangeMax: sensor.rangeMax, limits });
    }
  }

  /** An excursion may have begun outside the readings' path (offline): the device's next readings go first. */
  markUnsettled(deviceId: number) {
    const rules = this.devices.get(deviceId);
    if (rules) rules.unsettled = true;
  }

  forget(deviceId: number) {
    const rules = this.devices.get(deviceId);
    this.devices.delete(deviceId);
    if (rules) this.bySerial.delete(rules.serial);
  }

  forgetSerial(serial: string) {
    const deviceId = this.bySerial.get(serial);
    if (deviceId !== undefined) this.forget(deviceId);
  }

  clear() {
    this.devices.clear();
    this.bySerial.clear();
  }

  /**
   * Whether a reading of `sensorId` can change nothing in the engine, by the device's rules: every
   * value setting that applies to the sensor finds it inside all its limits. From a normal state,
   * such a reading leaves the machine normal whatever its mode, time slot, delay or hysteresis.
   */
  static inRange(rules: DeviceRules, sensorId: number, value: number): boolean {
    const sensor = rules.sensors.get(sensorId);
    if (!sensor) return true; // a switched-off channel is stored, never judged
    for (const limits of sensor.limits) if (classify(limits, value) !== 'ok') return false;
    return true;
  }

  /**
   * Whether a message may raise or clear an alarm, by what is cached (a hint for ordering work,
   * never for skipping it): a reading out of some limit, or a device whose excursion is under way.
   */
  mayAct(job: IngestJob): boolean {
    const rules = this.devices.get(job.device.id);
    if (!rules) return false;
    if (rules.unsettled) return true;
    return job.records.some((record: UpRecord) =>
      record.channels.some(({ ch, v }) => {
        const sensorId = job.device.sensorIds.get(ch);
        return sensorId !== undefined && !AlarmRuleCache.inRange(rules, sensorId, v);
      }),
    );
  }
}
