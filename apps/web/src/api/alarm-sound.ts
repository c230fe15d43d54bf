/** Spec section 9: the alarm sound loops for 5 seconds per alert. */
export const ALARM_SOUND_MS = 5_000;
export const ALARM_SOUND_URL = '/alarm.wav';

/**
 * The alarm sound of spec section 4: each alert (re)starts a 5-second countdown during which the
 * audio loops. Browsers may refuse to play before the user interacted with the page: that fails
 * silently.
 */
export class AlarmSound {
  private audio: HTMLAudioElement | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;

  play(): void {
    try {
      this.audio ??= new Audio(ALARM_SOUND_URL);
      this.audio.loop = true;
      const started = this.audio.play() as Promise<void> | undefined;
      started?.catch?.(() => {});
    } catch {
      return;
    }
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.stop(), ALARM_SOUND_MS);
  }

  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    try {
      this.audio?.pause();
      if (this.audio) this.audio.currentTime = 0;
    } catch {
      // nothing to stop
    }
  }
}
