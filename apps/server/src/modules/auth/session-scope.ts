/**
 * A session opened because the password must be renewed (msgCode 301) may only change the
 * password or log out; every other call answers 301 again.
 */
export const PASSWORD_CHANGE_CALLS: ReadonlySet<string> = new Set([
  '/api/user/updatePassword',
  '/api/logout',
]);
