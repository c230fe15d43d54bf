import { config } from 'zod';

/*
 * Zod compiles object parsers with `new Function` when it may, and probes that by calling
 * `Function('')`. The console's Content-Security-Policy allows no eval, so the probe is a CSP
 * violation on every page (apps/server/src/plugins/security-headers.ts). Parsing without the
 * compiled fast path is plenty for form-sized objects. Zod decides when a schema is built, so
 * this must run before the contract's modules: main.tsx imports it first, and api/request.ts too,
 * which puts it in the shared chunk beside zod and the contract (a module only the entry imports
 * would run after every chunk the entry depends on). e2e/specs/security-headers.spec.ts fails if
 * the probe comes back.
 */
config({ jitless: true });
