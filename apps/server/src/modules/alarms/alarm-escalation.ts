import type { EscalationLevel } from '@coldchain/contract';
import { idFromWire, idToWire } from '../../lib/ids';
import type { Audience, SettingRow } from './alarm-writer';
import type { StoredEscalationLevel } from './alarms.table';

/**
 * The call tree of a setting: who an escalation to level 2 or 3 reaches, and by which channels.
 * A level the setting does not name reaches the setting's own notifiers, as escalation did
 * before levels had people of their own, so an older setting keeps notifying somebody.
 */
export function audienceOfLevel(setting: SettingRow, level: number): Audience {
  const own = setting.escalation.find((e) => e.level === level);
  return own
    ? { notifierIds: own.notifierIds, channels: own.channels }
    : { notifierIds: setting.notifierIds, channels: setting.channels };
}

export function storeEscalation(levels: EscalationLevel[]): StoredEscalationLevel[] {
  return [...levels]
    .sort((a, b) => a.level - b.level)
    .map((e) => ({
      level: e.level,
      notifierIds: e.notifierIds.map((id) => idFromWire(id)!),
      channels: e.channels,
    }));
}

export function presentEscalation(levels: StoredEscalationLevel[]): EscalationLevel[] {
  return levels.map((e) => ({
    level: e.level,
    notifierIds: e.notifierIds.map(idToWire),
    channels: e.channels,
  }));
}

/** Every person a setting may notify, at any level: all must be members of the company. */
export function everyNotifier(notifierIds: number[], levels: StoredEscalationLevel[]): number[] {
  return [...new Set([...notifierIds, ...levels.flatMap((e) => e.notifierIds)])];
}
