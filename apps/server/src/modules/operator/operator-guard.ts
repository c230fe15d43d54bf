import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error';
import { OPERATOR_TAG, type PermissionCheck } from '../../plugins/auth';

/**
 * Admits platform operators only (the user's `is_operator` flag, set by `npm run admin --
 * operator add` or OPERATOR_ACCOUNTS), whatever company is in scope, refused with "Only platform
 * operators may do this". It carries the platform tag `operator`, so the route table, the
 * permission matrix and the auth plugin's early check all see what the call requires.
 */
export function requireOperator(): PermissionCheck {
  const check = async (request: FastifyRequest) => {
    if (request.auth.isOperator !== true) throw new AppError('OPERATOR_ONLY');
  };
  return Object.assign(check, { permissionTag: OPERATOR_TAG, refusal: 'OPERATOR_ONLY' as const });
}
