import { DEFAULT_READING_WINDOW, type ReadingWindow } from './reading-window';

/** What one device may do (README "Configuration"): one device must never cost another. */
export interface DeviceLimits {
  /** Instants accepted from devices, against the server clock. */
  window: ReadingWindow;
  /** `up` and `event` messages a device may send a minute, MQTT and HTTP together. */
  messagesPerMinute: number;
  /** Connection attempts a device may make to the embedded broker a minute. */
  connectsPerMinute: number;
  /** The largest MQTT packet the embedded broker accepts (HTTP has BODY_LIMIT_BYTES). */
  maxPacketBytes: number;
}

export const DEFAULT_DEVICE_LIMITS: DeviceLimits = {
  window: DEFAULT_READING_WINDOW,
  messagesPerMinute: 120,
  connectsPerMinute: 10,
  maxPacketBytes: 1_048_576,
};
