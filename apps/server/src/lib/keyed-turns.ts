/**
 * Runs the work given for one key one at a time, in the order it was given, and the work of
 * different keys side by side. For the changes of one row that read it ahead and write it with a
 * statement that checks the version read (alarm-setting-quick-edit.ts): taking turns, edits of the
 * same row in this process do not read the same version and all but one find it gone.
 */
export class KeyedTurns<K> {
  /** The end of the last work given for each key with work still running or waiting. */
  readonly #tails = new Map<K, Promise<void>>();

  run<T>(key: K, work: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(work);
    // The next waits for this one's end, whether it succeeded or not.
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }

  /** How many keys have work running or waiting. */
  get busyKeys(): number {
    return this.#tails.size;
  }
}
