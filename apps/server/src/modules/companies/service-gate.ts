import type { ServiceAuthTag } from '@coldchain/contract';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error';

/** A preHandler made by `requireService`: it carries its service, so the route table can list it. */
export type ServiceGate = ((request: FastifyRequest) => Promise<void>) & { serviceTag: ServiceAuthTag };

/**
 * Admits only callers whose company in scope has `service` on (enabled by the supplier and not
 * past its expiry: modules/auth/session-caller.ts drops expired services). A service that is off
 * answers the spec's own words, "No permission for this service or operation" (section 8), the
 * same for every service (docs/decisions.md "Operator console and services").
 */
export function requireService(service: ServiceAuthTag): ServiceGate {
  const check = async (request: FastifyRequest) => {
    if (!request.auth.serviceTags.has(service)) throw new AppError('NO_PERMISSION');
  };
  return Object.assign(check, { serviceTag: service });
}
