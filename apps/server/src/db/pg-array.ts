/**
 * A PostgreSQL array literal (`{1,2,3}`) for one bound parameter, cast in SQL (`::bigint[]`).
 * Batches pass thousands of values this way as a single parameter instead of one each, which
 * PostgreSQL caps at 65535 per statement and PGlite pays for one by one. Only for numbers,
 * booleans and strings without quotes, commas or braces (the callers' values: ids, instants,
 * measured values, flags, modes).
 */
export const pgArray = (values: readonly (string | number | boolean)[]): string => `{${values.join(',')}}`;
