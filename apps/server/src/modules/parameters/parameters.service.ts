import { randomUUID } from 'node:crypto';
import {
  type DeviceParameters,
  ParameterAckMessage,
  type ParameterDownMessage,
  type ParameterRequestView,
  ParameterState,
  type PushParametersRequest,
} from '@coldchain/contract';
import { and, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import { type Actor, recordAudit } from '../audit/audit.service';
import { devices } from '../devices/devices.table';
import { ParameterLink } from './parameter-link';
import { parameterRequests } from './parameter-requests.table';

type RequestRow = typeof parameterRequests.$inferSelect;

const PENDING: number[] = [ParameterState.Reading, ParameterState.Sending];
const FAILED_OF: Record<number, ParameterState> = {
  [ParameterState.Reading]: ParameterState.ReadFailed,
  [ParameterState.Sending]: ParameterState.SendFailed,
};

/** Why a request failed: `timeout` (no ack in time), `noBroker` (nothing to publish on), `rejected` (the device said no). */
export type ParameterError = 'timeout' | 'noBroker' | 'rejected';

function toView(row: RequestRow): ParameterRequestView {
  return {
    id: idToWire(row.id),
    requestId: row.requestId,
    kind: row.kind as 'read' | 'push',
    state: row.state as ParameterState,
    params: row.params ?? null,
    error: row.error,
    createTime: row.createdAt.getTime(),
    finishTime: row.finishedAt?.getTime() ?? null,
  };
}

/**
 * Parameter reads and pushes (API.md "down, parameters"). Each request is a row whose state moves
 * from reading/sending to read ok/failed or sent/failed when the device acks or the timeout passes.
 * Timers live in memory; a request left pending by a restart is failed when it is next looked at.
 */
export class ParameterService {
  readonly link = new ParameterLink();
  private readonly timers = new Map<number, NodeJS.Timeout>();
  private pending: Promise<unknown>[] = [];

  constructor(
    private readonly db: Db,
    private readonly timeoutMs: number,
    private readonly log: FastifyBaseLogger,
  ) {
    this.link.onAck((serial, payload) => {
      const work = this.handleAck(serial, payload).catch((err: Error) =>
        this.log.error({ err, serial }, 'parameter ack not applied'),
      );
      this.track(work);
    });
  }

  async read(actor: Actor, scope: SQL, wireId: string): Promise<ParameterRequestView> {
    return this.start(actor, scope, wireId, 'read');
  }

  async push(actor: Actor, scope: SQL, input: PushParametersRequest): Promise<ParameterRequestView> {
    const { id, ...rest } = input;
    const params = Object.fromEntries(
      Object.entries(rest).filter(([, v]) => v !== undefined),
    ) as DeviceParameters;
    // Spec section 5: verification at most the upload interval, with what the device keeps.
    const device = await this.findDevice(scope, id);
    const upload = params.uploadInterval ?? device.uploadInterval;
    const verify = params.alarmVerifyInterval ?? device.alarmVerifyInterval;
    if (verify > upload) throw new AppError('rule.alarmVerifyInterval');
    return this.start(actor, scope, id, 'push', params);
  }

  /** The device's latest request, or null when none was ever made. */
  async latest(scope: SQL, wireId: string): Promise<ParameterRequestView | null> {
    const device = await this.findDevice(scope, wireId);
    const row = await this.latestRow(device.id);
    return row ? toView(row) : null;
  }

  /** Waits for ack handling in flight (tests, shutdown). */
  async idle() {
    while (this.pending.length > 0) await Promise.allSettled(this.pending);
  }

  close() {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private track(work: Promise<unknown>) {
    this.pending.push(work);
    void work.finally(() => {
      this.pending = this.pending.filter((p) => p !== work);
    });
  }

  private async findDevice(scope: SQL, wireId: string) {
    const id = idFromWire(wireId);
    if (!id) throw new AppError('DEVICE_NOT_FOUND');
    const [device] = await this.db
      .select({
        id: devices.id,
        serial: devices.serial,
        companyId: devices.companyId,
        uploadInterval: devices.uploadIntervalS,
        alarmVerifyInterval: devices.alarmVerifyIntervalS,
      })
      .from(devices)
      .where(and(eq(devices.id, id), scope));
    if (!device) throw new AppError('DEVICE_NOT_FOUND');
    return device;
  }

  /** The latest row, with a pending one past its timeout failed first (e.g. after a restart). */
  private async latestRow(deviceId: number): Promise<RequestRow | undefined> {
    const [row] = await this.db
      .select()
      .from(parameterRequests)
      .where(eq(parameterRequests.deviceId, deviceId))
      .orderBy(desc(parameterRequests.createdAt), desc(parameterRequests.id))
      .limit(1);
    if (row && PENDING.includes(row.state) && Date.now() - row.createdAt.getTime() > this.timeoutMs) {
      return (await this.fail(row.id, 'timeout')) ?? row;
    }
    return row;
  }

  private async start(
    actor: Actor,
    scope: SQL,
    wireId: string,
    kind: 'read' | 'push',
    params?: DeviceParameters,
  ): Promise<ParameterRequestView> {
    const device = await this.findDevice(scope, wireId);
    const last = await this.latestRow(device.id);
    if (last && PENDING.includes(last.state)) throw new AppError('PARAMETERS_BUSY');
    const requestId = randomUUID();
    const row = await this.db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(parameterRequests)
        .values({
          companyId: device.companyId,
          deviceId: device.id,
          requestId,
          kind,
          state: kind === 'read' ? ParameterState.Reading : ParameterState.Sending,
          params: params ?? null,
          createdBy: actor.userId,
        })
        .returning();
      if (kind === 'push') {
        await recordAudit(tx, actor, {
          action: 'device.pushParameters',
          targetType: 'device',
          targetId: device.id,
          after: params,
        });
      }
      return inserted!;
    });
    const message: ParameterDownMessage =
      kind === 'read' ? { requestId, cmd: 'read' } : { requestId, cmd: 'write', params };
    if (!this.link.publishDown(device.serial, message)) {
      return toView((await this.fail(row.id, 'noBroker')) ?? row);
    }
    const timer = setTimeout(() => {
      this.timers.delete(row.id);
      this.track(this.fail(row.id, 'timeout'));
    }, this.timeoutMs);
    timer.unref();
    this.timers.set(row.id, timer);
    return toView(row);
  }

  /** Fails a request that is still pending; a request already answered is left as it is. */
  private async fail(id: number, error: ParameterError): Promise<RequestRow | undefined> {
    const [row] = await this.db.select().from(parameterRequests).where(eq(parameterRequests.id, id));
    if (!row || !PENDING.includes(row.state)) return row;
    const [updated] = await this.db
      .update(parameterRequests)
      .set({ state: FAILED_OF[row.state]!, error, finishedAt: new Date() })
      .where(and(eq(parameterRequests.id, id), inArray(parameterRequests.state, PENDING)))
      .returning();
    return updated ?? row;
  }

  private async handleAck(serial: string, payload: Buffer) {
    let ack: ParameterAckMessage;
    try {
      ack = ParameterAckMessage.parse(JSON.parse(payload.toString('utf8')));
    } catch {
      this.log.warn({ serial }, 'malformed parameter ack ignored');
      return;
    }
    await this.db.transaction(async (tx) => {
      const [found] = await tx
        .select({ request: parameterRequests, serial: devices.serial })
        .from(parameterRequests)
        .innerJoin(devices, eq(devices.id, parameterRequests.deviceId))
        .where(eq(parameterRequests.requestId, ack.requestId))
        .for('update');
      // An ack for another device's request, or for one already finished, changes nothing.
      if (!found || found.serial !== serial || !PENDING.includes(found.request.state)) return;
      const request = found.request;
      const timer = this.timers.get(request.id);
      if (timer) clearTimeout(timer);
      this.timers.delete(request.id);
      const reading = request.kind === 'read';
      const state = ack.ok
        ? reading
          ? ParameterState.ReadOk
          : ParameterState.Sent
        : reading
          ? ParameterState.ReadFailed
          : ParameterState.SendFailed;
      await tx
        .update(parameterRequests)
        .set({
          state,
          error: ack.ok ? '' : 'rejected',
          params: reading && ack.ok ? (ack.params ?? {}) : request.params,
          finishedAt: new Date(),
        })
        .where(eq(parameterRequests.id, request.id));
      if (!reading && ack.ok && request.params) {
        // The device now runs with the pushed values: the platform's record follows it.
        const p = request.params;
        const [before] = await tx
          .select({
            recordInterval: devices.recordIntervalS,
            uploadInterval: devices.uploadIntervalS,
            alarmVerifyInterval: devices.alarmVerifyIntervalS,
            offlineJudgement: devices.offlineJudgement,
          })
          .from(devices)
          .where(eq(devices.id, request.deviceId));
        await tx
          .update(devices)
          .set({
            ...(p.recordInterval !== undefined ? { recordIntervalS: p.recordInterval } : {}),
            ...(p.uploadInterval !== undefined ? { uploadIntervalS: p.uploadInterval } : {}),
            ...(p.alarmVerifyInterval !== undefined ? { alarmVerifyIntervalS: p.alarmVerifyInterval } : {}),
            ...(p.offlineJudgement !== undefined ? { offlineJudgement: p.offlineJudgement } : {}),
          })
          .where(eq(devices.id, request.deviceId));
        await recordAudit(
          tx,
          { companyId: request.companyId, userId: null, ip: '' },
          {
            action: 'device.parametersApplied',
            targetType: 'device',
            targetId: request.deviceId,
            before,
            after: p,
          },
        );
      }
    });
  }
}
