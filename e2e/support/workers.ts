/** Spec files run this many at a time, each worker against a server of its own (global-setup.ts). */
export const E2E_WORKERS = 2;
