import { z } from 'zod';
import { PUSH_MAX_DEVICES } from './push-docking';

const Id = z.coerce.string().regex(/^[1-9]\d{0,15}$/, { error: 'rule.id' });

/**
 * Platform docking (`platformList`, `dockMonitor`, issue 16 item 5): the supplier lists external
 * platforms (a regulator's vaccine platform, a pharma quality system); a company applies to send
 * chosen monitors to one. States as the spec's docking service: 1 pending (until the supplier
 * enables it), 2 enabled, 3 stopped (stopping clears the docking data).
 */
export const DockingState = { Pending: 1, Enabled: 2, Stopped: 3 } as const;
export type DockingState = (typeof DockingState)[keyof typeof DockingState];

/** Protocols a platform speaks; each is one adapter file on the server (push-adapters.ts). */
export const DockingProtocols = ['generic-json'] as const;
export type DockingProtocol = (typeof DockingProtocols)[number];

const PlatformName = z
  .string()
  .trim()
  .min(2, { error: 'rule.platformName' })
  .max(100, { error: 'rule.platformName' });

/** `/api/operator/platform/savePlatform`: a platform the supplier offers (no id: a new one). */
export const SaveDockingPlatformRequest = z.object({
  id: Id.optional(),
  name: PlatformName,
  protocol: z.enum(DockingProtocols, { error: 'rule.platformProtocol' }),
  endpoint: z
    .string()
    .trim()
    .max(2000, { error: 'rule.pushUrl' })
    .regex(/^https?:\/\/[^\s]+$/i, { error: 'rule.pushUrl' }),
  /** Sent as X-Platform-Key so the platform knows whose deliveries these are. */
  keyId: z.string().trim().min(1, { error: 'rule.platformKeyId' }).max(200, { error: 'rule.platformKeyId' }),
  /** The signing secret the platform gave; required on creation, kept when an edit leaves it out. */
  secret: z
    .string()
    .min(8, { error: 'rule.platformSecret' })
    .max(500, { error: 'rule.platformSecret' })
    .optional(),
  /** Offered to companies; switching it off stops nothing already enabled. */
  offered: z.boolean().default(true),
});
export type SaveDockingPlatformRequest = z.infer<typeof SaveDockingPlatformRequest>;

/** A platform as the supplier sees it: the secret is never answered, only whether one is kept. */
export interface DockingPlatformView {
  id: string;
  name: string;
  protocol: DockingProtocol;
  endpoint: string;
  keyId: string;
  hasSecret: true;
  offered: boolean;
  /** Dockings of all companies that are not stopped. */
  activeDockings: number;
  createTime: number;
}

export const PageRequest = z.object({
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

/** `/api/platformDock/pagePlatforms`: the offered platforms with the company's docking on each. */
export interface CompanyPlatformView {
  id: string;
  name: string;
  protocol: DockingProtocol;
  /** The company's latest docking to this platform, if any. */
  docking: CompanyDockingView | null;
}

export interface CompanyDockingView {
  id: string;
  platformId: string;
  platformName: string;
  state: DockingState;
  /** Stopped by the delivery queue after a day of failures, not by a person. */
  stoppedByFailures: boolean;
  deviceIds: string[];
  appliedBy: string;
  applyTime: number;
  decideTime: number | null;
  /** Why the supplier refused or the delivery stopped; '' otherwise. */
  reason: string;
  /** Deliveries waiting or being retried. */
  queued: number;
  lastDeliveryAt: number | null;
  failingSince: number | null;
}

/** `/api/platformDock/apply`: dock these monitors to a platform (pending until the supplier enables it). */
export const ApplyDockingRequest = z.object({
  platformId: Id,
  deviceIds: z
    .array(Id)
    .min(1, { error: 'rule.dockingDevices' })
    .max(PUSH_MAX_DEVICES, { error: 'rule.dockingDevices' }),
});
export type ApplyDockingRequest = z.infer<typeof ApplyDockingRequest>;

export const DockingIdRequest = z.object({ id: Id });
export type DockingIdRequest = z.infer<typeof DockingIdRequest>;

/** `/api/platformDock/setDevices`: replaces a pending or enabled docking's monitors. */
export const SetDockingDevicesRequest = ApplyDockingRequest.omit({ platformId: true }).extend({ id: Id });
export type SetDockingDevicesRequest = z.infer<typeof SetDockingDevicesRequest>;

/** `/api/platformDock/pageDeliveries`: the docking's deliveries, newest first (the dockMonitor page). */
export const PageDockingDeliveriesRequest = PageRequest.extend({ id: Id });
export type PageDockingDeliveriesRequest = z.infer<typeof PageDockingDeliveriesRequest>;

/** `/api/operator/platform/pageRequests`: every company's dockings, pending first. */
export const PageDockingRequestsRequest = PageRequest.extend({
  state: z.coerce.number().int().min(1).max(3).optional(),
});
export type PageDockingRequestsRequest = z.infer<typeof PageDockingRequestsRequest>;

export interface DockingRequestView extends CompanyDockingView {
  companyId: string;
  companyName: string;
}

/** `/api/operator/platform/decideRequest`: enable a pending docking, or refuse it with a reason. */
export const DecideDockingRequest = z.object({
  id: Id,
  enable: z.boolean(),
  reason: z.string().trim().max(200, { error: 'rule.dockingReason' }).default(''),
});
export type DecideDockingRequest = z.infer<typeof DecideDockingRequest>;
