import { type Envelope, MsgCode } from '@coldchain/contract';

export function ok<T>(data: T, msgContent = 'success'): Envelope<T> {
  return { msgCode: MsgCode.Ok, msgContent, data };
}
