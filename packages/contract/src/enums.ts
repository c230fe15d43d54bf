/** Device (monitor) state, spec section 4. Group state 1-5 uses the same numbers. */
export const DeviceState = {
  Normal: 1,
  Alarm: 2,
  Abnormal: 3,
  Offline: 4,
  Service: 5,
  Disposed: 6,
} as const;
export type DeviceState = (typeof DeviceState)[keyof typeof DeviceState];

/** Version tiers of a monitor (spec sections 3 and 9). */
export const VersionTiers = ['basic', 'standard', 'elite', 'premium'] as const;
export type VersionTier = (typeof VersionTiers)[number];

/** Login types of `/api/doLogin` (API.md). */
export const LoginType = { Password: 1, Code: 2, AddressCode: 3 } as const;
export type LoginType = (typeof LoginType)[keyof typeof LoginType];
