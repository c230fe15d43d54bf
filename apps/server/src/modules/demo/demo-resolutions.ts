import { PageAlarmsRequest, ResolveAlarmRequest, ResolveState } from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { idToWire } from '../../lib/ids';
import { pageAlarms, resolveAlarm } from '../alarms/alarms.service';
import { devices } from '../devices/devices.table';

/**
 * The end of the power cut's story (demo-story.ts): the engine ended the over-limit alarm when
 * the fridge was back in its band ("normalized"), and the department's person in charge resolves
 * it with what happened, through the same call as the console's resolve dialog (audited, and
 * attributed to them). Only on the first start, right after the history that raised it.
 */
export async function resolvePowerCutAlarms(db: Db, companyId: number, deviceId: number, resolverId: number) {
  const scope = eq(devices.companyId, companyId);
  const ended = await pageAlarms(
    db,
    companyId,
    scope,
    PageAlarmsRequest.parse({
      deviceId: idToWire(deviceId),
      alarmType: 'overLimit',
      resolveState: ResolveState.Normalized,
      pageSize: 50,
    }),
  );
  for (const alarm of ended.list) {
    await resolveAlarm(
      db,
      { companyId, userId: resolverId, ip: '' },
      scope,
      ResolveAlarmRequest.parse({
        id: alarm.id,
        resolveType: 'powerRestored',
        cause:
          'Power cut in the building; the fridge ran on its logger battery and warmed for about an hour.',
        action:
          'Mains power back; stock checked against its stability data and kept. Fridge moved to the backed-up circuit.',
      }),
    );
  }
}
