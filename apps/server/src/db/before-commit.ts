/**
 * Work a transaction does as its last step, after its callback and before COMMIT. The audit
 * trail uses it (audit.service.ts): an entry is appended under its company's lock, and a
 * transaction that took that lock and then waited for a row could deadlock on PostgreSQL with
 * one that held the row and waited for the lock (a rule edit and a device edit did). Appended
 * last, the lock is never held while waiting for a row, and it is held for the shortest time.
 */
type Work = () => Promise<void>;

const pending = new WeakMap<object, Work[]>();

/**
 * Runs `work` at the end of `tx`, inside it: a failure rolls the whole transaction back. Returns
 * false when `tx` is not a transaction opened through `runsBeforeCommit` (the database itself, or
 * a nested transaction), in which case the caller does its work at once.
 */
export function beforeCommit(tx: object, work: Work): boolean {
  const list = pending.get(tx);
  if (!list) return false;
  list.push(work);
  return true;
}

type Callback = (tx: object) => Promise<unknown>;

/** Makes every `db.transaction` run its before-commit work once its callback has succeeded. */
export function runsBeforeCommit<D extends object>(db: D): D {
  const target = db as unknown as { transaction: (callback: Callback, config?: unknown) => Promise<unknown> };
  const begin = target.transaction.bind(db);
  target.transaction = (callback, config) =>
    begin(async (tx) => {
      const list: Work[] = [];
      pending.set(tx, list);
      try {
        const result = await callback(tx);
        // Work may add work (an entry recorded by another entry's step): run until none is left.
        for (let i = 0; i < list.length; i++) await list[i]!();
        return result;
      } finally {
        pending.delete(tx);
      }
    }, config);
  return db;
}
