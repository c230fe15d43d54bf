import { z } from 'zod';

/*
 * Parameter push down (API.md "down, parameters"; spec section 4 "Parameter push: reading, read
 * success or failure, sending, sent or failed"). The platform publishes on cc/v1/<serial>/down and
 * the device answers on cc/v1/<serial>/ack with the same requestId.
 */

const Id = z.coerce.string().regex(/^[1-9]\d{0,15}$/, { error: 'rule.id' });
const Interval = z.coerce.number().int().min(10).max(86_400);

export const ParameterState = {
  Reading: 1,
  ReadOk: 2,
  ReadFailed: 3,
  Sending: 4,
  Sent: 5,
  SendFailed: 6,
} as const;
export type ParameterState = (typeof ParameterState)[keyof typeof ParameterState];

/** The parameters a device accepts from the platform. */
export interface DeviceParameters {
  recordInterval?: number;
  uploadInterval?: number;
  alarmVerifyInterval?: number;
  offlineJudgement?: number;
}

/** `/api/device/pushParameters`: at least one parameter; verification at most the upload interval. */
export const PushParametersRequest = z
  .object({
    id: Id,
    recordInterval: Interval.optional(),
    uploadInterval: Interval.optional(),
    alarmVerifyInterval: Interval.optional(),
    offlineJudgement: z.coerce.number().int().min(1).max(100).optional(),
  })
  .refine(
    (r) =>
      r.recordInterval !== undefined ||
      r.uploadInterval !== undefined ||
      r.alarmVerifyInterval !== undefined ||
      r.offlineJudgement !== undefined,
    { error: 'rule.parametersRequired', path: ['recordInterval'] },
  )
  .refine(
    (r) =>
      r.alarmVerifyInterval === undefined ||
      r.uploadInterval === undefined ||
      r.alarmVerifyInterval <= r.uploadInterval,
    { error: 'rule.alarmVerifyInterval', path: ['alarmVerifyInterval'] },
  );
export type PushParametersRequest = z.infer<typeof PushParametersRequest>;

/** `/api/device/parameterState`: the latest request of a device and its state. */
export interface ParameterRequestView {
  id: string;
  requestId: string;
  kind: 'read' | 'push';
  state: ParameterState;
  /** What was pushed (push) or what the device reported (read ok). */
  params: DeviceParameters | null;
  error: string;
  createTime: number;
  finishTime: number | null;
}

/** Down message: `{requestId, cmd: "read"}` or `{requestId, cmd: "write", params}`. */
export interface ParameterDownMessage {
  requestId: string;
  cmd: 'read' | 'write';
  params?: DeviceParameters;
}

/** Ack message from the device. */
export const ParameterAckMessage = z.object({
  requestId: z.string().min(1).max(64),
  ok: z.boolean(),
  params: z
    .object({
      recordInterval: z.number().int().positive().optional(),
      uploadInterval: z.number().int().positive().optional(),
      alarmVerifyInterval: z.number().int().positive().optional(),
      offlineJudgement: z.number().int().positive().optional(),
    })
    .optional(),
  error: z.string().max(200).optional(),
});
export type ParameterAckMessage = z.infer<typeof ParameterAckMessage>;
