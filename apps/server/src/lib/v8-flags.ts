import { setFlagsFromString } from 'node:v8';

/**
 * V8 settings of the server, applied when this module loads: server.ts imports it before
 * anything else. V8's flags belong to the process, so they hold for the database thread too.
 *
 * `--no-allocation-site-pretenuring`: V8 watches the objects made at each place in the code, and
 * once most of them outlive a young-generation collection (a burst: the start, a fleet
 * connecting, a demo seeding) it makes that place's objects in the old generation from then on.
 * That choice is not undone, so after a burst every ingest batch's statement parts, validated
 * messages and alarm contexts, dead milliseconds later, went straight into the old generation
 * and filled it: a full collection every ten seconds at 2 000 devices and a pause of a few
 * hundred milliseconds every 100 s at 19 000, where every acknowledgement waited. Without it,
 * such objects die young; the old generation grew a quarter as fast (docs/performance.md,
 * "Objects made old").
 */
export const SERVER_V8_FLAGS = ['--no-allocation-site-pretenuring'] as const;

for (const flag of SERVER_V8_FLAGS) setFlagsFromString(flag);
