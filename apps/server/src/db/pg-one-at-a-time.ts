import type pg from 'pg';

type Callback = (error: unknown, result: unknown) => void;

/**
 * Hands each pooled connection its statements one at a time, in the order they were given. Code
 * may start a statement before the previous one on the same transaction has answered (the audit
 * trail sends its lock and its append together, audit.service.ts); pg queues such a statement
 * itself today, with a deprecation warning, and pg@9 removes that queue. The order, and when each
 * statement reaches the server, stay what pg's queue gave: the next is sent once the previous has
 * answered.
 */
export function oneQueryAtATime(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    let previous: Promise<unknown> = Promise.resolve();
    (client as { query: unknown }).query = (config: unknown, ...rest: unknown[]) => {
      // A submittable (a cursor, a COPY stream) keeps the connection until it ends: as pg does.
      if (typeof (config as { submit?: unknown } | null)?.submit === 'function')
        return query(config, ...rest);
      const last = rest.at(-1);
      if (typeof last === 'function') {
        const done = last as Callback;
        const answered = new Promise<void>((resolve) => {
          const answer: Callback = (error, result) => {
            resolve();
            done(error, result);
          };
          void previous.then(() => {
            try {
              query(config, ...rest.slice(0, -1), answer);
            } catch (error) {
              answer(error, undefined);
            }
          });
        });
        previous = answered;
        return undefined;
      }
      const result = previous.then(() => query(config, ...rest));
      previous = result.catch(() => undefined);
      return result;
    };
  });
}
