/**
 * How a simulated logger answers the platform's parameter requests (docs/device-protocol.md,
 * "Parameters down and ack"): a read reports the values it runs with, a write takes the values
 * that are in range and answers ok, or refuses the whole write when one is not.
 */
export interface LoggerParameters {
  recordInterval: number;
  uploadInterval: number;
  alarmVerifyInterval: number;
  offlineJudgement: number;
}

export const DEFAULT_PARAMETERS: LoggerParameters = {
  recordInterval: 300,
  uploadInterval: 300,
  alarmVerifyInterval: 300,
  offlineJudgement: 3,
};

const LIMITS: Record<keyof LoggerParameters, [number, number]> = {
  recordInterval: [10, 86_400],
  uploadInterval: [10, 86_400],
  alarmVerifyInterval: [10, 86_400],
  offlineJudgement: [1, 100],
};

export interface ParameterAnswer {
  ack: { requestId: string; ok: boolean; params?: LoggerParameters; error?: string } | null;
  parameters: LoggerParameters;
}

export function answerParameterRequest(current: LoggerParameters, payload: string): ParameterAnswer {
  let message: { requestId?: unknown; cmd?: unknown; params?: Record<string, unknown> };
  try {
    message = JSON.parse(payload);
  } catch {
    return { ack: null, parameters: current };
  }
  if (typeof message.requestId !== 'string') return { ack: null, parameters: current };
  const requestId = message.requestId;
  if (message.cmd === 'read') return { ack: { requestId, ok: true, params: current }, parameters: current };
  if (message.cmd !== 'write' || typeof message.params !== 'object' || message.params === null) {
    return { ack: { requestId, ok: false, error: 'unknown command' }, parameters: current };
  }
  const next = { ...current };
  for (const [name, value] of Object.entries(message.params)) {
    const limits = LIMITS[name as keyof LoggerParameters];
    if (!limits) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < limits[0] || value > limits[1]) {
      return { ack: { requestId, ok: false, error: `${name} out of range` }, parameters: current };
    }
    next[name as keyof LoggerParameters] = value;
  }
  return { ack: { requestId, ok: true, params: next }, parameters: next };
}
