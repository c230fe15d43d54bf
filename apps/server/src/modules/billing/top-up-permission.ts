import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error';
import type { PermissionCheck } from '../../plugins/auth';

export { actorOf } from '../../plugins/auth';

/**
 * Like `requirePermission('device:topUp')`, but refused with the spec's own words (section 8:
 * "Cannot top up without permission") instead of the generic "no permission". It carries its tag,
 * so the route table and the permission matrix still see what the call requires.
 */
export function requireTopUp(): PermissionCheck {
  const check = async (request: FastifyRequest) => {
    if (!request.auth.authTags.has('device:topUp')) throw new AppError('TOP_UP_NOT_ALLOWED');
  };
  return Object.assign(check, { permissionTag: 'device:topUp', refusal: 'TOP_UP_NOT_ALLOWED' as const });
}
