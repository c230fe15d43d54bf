import type { SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { idFromWire } from '../../lib/ids';
import { KeyedTurns } from '../../lib/keyed-turns';
import { wholeCompanyOf } from '../org/access';
import type { SettingRow } from './alarm-writer';

/*
 * The quick rule edits' shared state on an embedded database (alarm-setting-quick-edit.ts,
 * `tryQuickEdit`): whose turn it is, and the row each rule's last quick edit writes.
 */

/** A rule found to edit: its row, and whether an alarm of it is open. */
export interface SettingToEdit {
  row: SettingRow;
  hasOpenAlarm: boolean;
}

/** The most rules whose last quick edit an embedded database's `RuleEdits` remembers. */
const REMEMBERED_RULES = 1000;

/**
 * What the quick edits on one embedded database share: the edits of each rule take turns, and the
 * row each rule's last quick edit wrote is remembered from the moment its statement is sent. An
 * edit in its turn starts from that row, checked by its statement like any read
 * (alarm-setting-quick-edit.ts, `checkedOfRow`), and its turn ends once its statement is sent:
 * the database's thread runs statements in the order they arrive, so the next edit's statement finds the rule as this one leaves it, and edits
 * of one rule sent together are written back to back. Without it they all read the rule ahead,
 * and all but the first find it changed and take the long way. One process opens an embedded
 * database, so all its edits pass here. A statement that wrote nothing (an alarm raised, the rule
 * changed otherwise: deleted, switched off, edited the long way) leaves the row forgotten, and the
 * edits sent after it from its row write nothing either: each takes the long way.
 */
export class RuleEdits {
  readonly turns = new KeyedTurns<string>();
  readonly #written = new Map<string, SettingToEdit>();

  written(key: string): SettingToEdit | undefined {
    return this.#written.get(key);
  }

  remember(key: string, rule: SettingToEdit | undefined): void {
    this.#written.delete(key);
    if (!rule) return;
    this.#written.set(key, rule);
    // A Map keeps insertion order: the first key is the rule edited longest ago.
    if (this.#written.size > REMEMBERED_RULES) this.#written.delete(this.#written.keys().next().value!);
  }

  /** Forgets `rule` when it is still what `key` remembers (an edit sent after it may have replaced it). */
  forget(key: string, rule: SettingToEdit): void {
    if (this.#written.get(key) === rule) this.#written.delete(key);
  }
}

const ruleEditsOf = new WeakMap<Db, RuleEdits>();

/** The quick edits' shared state on `db`, an embedded database. */
export function ruleEdits(db: Db): RuleEdits {
  const known = ruleEditsOf.get(db);
  if (known) return known;
  const edits = new RuleEdits();
  ruleEditsOf.set(db, edits);
  return edits;
}

/**
 * The key of rule `wireId` in `RuleEdits` when the caller sees the whole company (the row a quick
 * edit wrote stands for a find in that scope only); undefined otherwise.
 */
export function rememberedKey(companyId: number, scope: SQL, wireId: string): string | undefined {
  const id = idFromWire(wireId);
  return id && wholeCompanyOf(scope) === companyId ? `${companyId}:${id}` : undefined;
}
