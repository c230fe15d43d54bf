import { describe, expect, it } from 'vitest';
import { answerParameterRequest, DEFAULT_PARAMETERS } from './parameters';

describe('simulated parameter answers', () => {
  it('reports its parameters on a read', () => {
    const { ack } = answerParameterRequest(DEFAULT_PARAMETERS, '{"requestId":"r1","cmd":"read"}');
    expect(ack).toEqual({ requestId: 'r1', ok: true, params: DEFAULT_PARAMETERS });
  });

  it('takes the written values and answers ok; refuses a value out of range', () => {
    const written = answerParameterRequest(
      DEFAULT_PARAMETERS,
      '{"requestId":"r2","cmd":"write","params":{"uploadInterval":60,"alarmVerifyInterval":30}}',
    );
    expect(written.ack?.ok).toBe(true);
    expect(written.parameters).toEqual({
      ...DEFAULT_PARAMETERS,
      uploadInterval: 60,
      alarmVerifyInterval: 30,
    });
    const refused = answerParameterRequest(
      written.parameters,
      '{"requestId":"r3","cmd":"write","params":{"uploadInterval":5}}',
    );
    expect(refused.ack).toEqual({ requestId: 'r3', ok: false, error: 'uploadInterval out of range' });
    expect(refused.parameters).toEqual(written.parameters);
  });

  it('ignores what is not a request', () => {
    expect(answerParameterRequest(DEFAULT_PARAMETERS, 'not json').ack).toBeNull();
    expect(answerParameterRequest(DEFAULT_PARAMETERS, '{"cmd":"read"}').ack).toBeNull();
  });
});
