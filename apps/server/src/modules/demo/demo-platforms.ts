import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { SecretBox } from '../../lib/secret-box';
import { dockingPlatforms } from '../platform-docking/platform-docking.table';

const DEMO_PLATFORM = 'Provincial vaccine platform (demo)';

/**
 * One platform the demo supplier offers, so the demo company's platform docking page has
 * something to apply to and the demo operator something to enable. Its endpoint is on
 * example.org, which never answers: enabled, its deliveries show the queue retrying.
 */
export async function seedDemoPlatforms(db: Db, box: SecretBox): Promise<void> {
  const [held] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(dockingPlatforms)
    .where(sql`${dockingPlatforms.name} = ${DEMO_PLATFORM}`);
  if ((held?.n ?? 0) > 0) return;
  await db.insert(dockingPlatforms).values({
    name: DEMO_PLATFORM,
    protocol: 'generic-json',
    endpoint: 'https://vaccine-platform.example.org/coldchain/in',
    keyId: 'demo-supplier',
    secretSealed: box.seal(randomBytes(24).toString('base64url')),
  });
}
