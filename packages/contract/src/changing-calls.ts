/**
 * Which calls change data, by their name. The server's operation-log completeness test and the
 * console's double-click guard both ask this, so one rule decides for both.
 */

/** Route names that say "this changes something"… */
export const CHANGING_CALL =
  /^(add|edit|delete|save|set|reset|resolve|update|bind|unbind|move|remove|assign|create|transfer|join|dropOut|change|read|incoming|batch|register|invite|confirm|scan|upload|switch|modify|logout|apply|approve|reject|cancel|import|restore|recover|top|pay|renew)/i;

/** …unless they only read (`joinRequestList`, `assignableTags`). */
export const READING_CALL = /(List|Tags|Info|Detail|Status|Options|Count)$/;

export function isChangingCall(url: string): boolean {
  const name = url.split('/').pop() ?? '';
  return CHANGING_CALL.test(name) && !READING_CALL.test(name);
}
