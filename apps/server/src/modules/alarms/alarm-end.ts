import type { AlarmEndReason } from '@coldchain/contract';
import { and, eq, inArray, isNull, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { type Actor, recordAudit } from '../audit/audit.service';
import { alarmFollowUps, alarmRecords } from './alarms.table';

/**
 * Ends the open alarms `which` picks, because what judged them no longer applies: their rule was
 * edited, disabled or deleted, or their channel was switched off. They are not "normalized" (that
 * says the value came back, which nobody saw): they keep their resolve state, carry why they
 * ended and who ended them, and each is audited. Their reminders stop with them (the follow-up
 * job would drop an ended alarm's row when due; the row is no promise now). The caller drops the
 * engine's state, so that judging starts afresh.
 */
export async function endOpenAlarms(tx: Tx, actor: Actor, which: SQL, reason: AlarmEndReason) {
  const ended = await tx
    .update(alarmRecords)
    .set({ endTime: new Date(), endReason: reason, endedBy: actor.userId })
    .where(and(eq(alarmRecords.companyId, actor.companyId), which, isNull(alarmRecords.endTime)))
    .returning({
      id: alarmRecords.id,
      resolveState: alarmRecords.resolveState,
      endTime: alarmRecords.endTime,
    });
  if (ended.length > 0) {
    await tx.delete(alarmFollowUps).where(
      inArray(
        alarmFollowUps.alarmId,
        ended.map((a) => a.id),
      ),
    );
  }
  for (const alarm of ended) {
    await recordAudit(tx, actor, {
      action: 'alarm.endByRule',
      targetType: 'alarm',
      targetId: alarm.id,
      before: { endTime: null },
      after: { endTime: alarm.endTime!.getTime(), endReason: reason, resolveState: alarm.resolveState },
    });
  }
  return ended.length;
}
