import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeAudio } from '../test/fake-websocket';
import { ALARM_SOUND_MS, AlarmSound } from './alarm-sound';

beforeEach(() => {
  vi.useFakeTimers();
  FakeAudio.reset();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('alarm sound', () => {
  it('loops for 5 seconds, and a new alert restarts the countdown', () => {
    const sound = new AlarmSound();
    sound.play();
    const audio = FakeAudio.instances[0]!;
    expect(audio.loop).toBe(true);
    vi.advanceTimersByTime(ALARM_SOUND_MS - 1_000);
    sound.play();
    vi.advanceTimersByTime(ALARM_SOUND_MS - 1);
    expect(audio.playing).toBe(true);
    vi.advanceTimersByTime(1);
    expect(audio.playing).toBe(false);
    expect(FakeAudio.instances).toHaveLength(1);
  });

  it('fails silently when the browser blocks autoplay', async () => {
    class BlockedAudio extends FakeAudio {
      override play(): Promise<void> {
        return Promise.reject(new DOMException('blocked', 'NotAllowedError'));
      }
    }
    vi.stubGlobal('Audio', BlockedAudio);
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    expect(() => new AlarmSound().play()).not.toThrow();
    await vi.advanceTimersByTimeAsync(ALARM_SOUND_MS);
    process.off('unhandledRejection', onRejection);
    expect(rejections).toEqual([]);
  });
});
