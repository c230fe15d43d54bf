import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DatabaseChanges } from '../db/database-changes';
import { ok } from './envelope';

/** An answer is reused for at most this long, even with no change: answers that depend on the clock ("today", "offline for") move on. */
export const ANSWER_TTL_MS = 1_000;
/**
 * Answers kept at most; the least recently computed go first. Answers past their time to live
 * are dropped whenever one is computed, so these are the answers of about the last second: a
 * bound for a burst of distinct questions (a day of history at 1 000 points is about 50 KB).
 */
export const MAX_ANSWERS = 500;

interface Entry {
  generation: number;
  at: number;
  answer: Promise<unknown>;
}

/**
 * The console's page-load reads, answered again without the database while nothing changed
 * (docs/performance.md, "Answers reused between changes"). The embedded database runs one
 * statement at a time, and under many callers its time per statement was the limit of every read
 * (a wall of dashboards, an open-API client polling): the same question asked again gets the
 * answer computed for it, or joins the computation under way.
 *
 * An answer is reused only while the database's change count (db/database-changes.ts) is the
 * one it was computed under, and for at most `ttlMs`. The count moves when a change commits,
 * before whoever made it hears back, so a caller never reads an answer older than its own
 * write, nor one older than a change the live socket told it about. The key holds everything
 * the answer depends on besides the database: the call, the caller and their rights and scope,
 * the language and the request's body. On PostgreSQL the count also moves when another instance
 * announces a change (db/pg-changes.ts), a few milliseconds after it committed; while this
 * instance cannot hear those announcements, every call computes its answer.
 */
export class AnswerCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly changes: DatabaseChanges | undefined,
    private readonly ttlMs = ANSWER_TTL_MS,
    private readonly maxEntries = MAX_ANSWERS,
  ) {}

  answer<T>(key: string, compute: () => Promise<T>): Promise<T> {
    if (!this.changes?.complete) return compute();
    const now = performance.now();
    const generation = this.changes.generation;
    const kept = this.entries.get(key);
    if (kept && kept.generation === generation && now - kept.at < this.ttlMs)
      return kept.answer as Promise<T>;
    const answer = compute();
    const entry: Entry = { generation, at: now, answer };
    this.entries.delete(key);
    this.entries.set(key, entry);
    // Oldest first: drop what has expired, and the oldest beyond the bound.
    for (const [oldKey, old] of this.entries) {
      if (now - old.at < this.ttlMs && this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldKey);
    }
    // A refusal or a failure is not kept: the next caller asks the database again.
    answer.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return answer;
  }

  /** How many answers are kept (tests). */
  get size(): number {
    return this.entries.size;
  }
}

/** What a signed-in request's answer depends on besides the database: the call, who asks, in which language, with which body. */
export function answerKey(request: FastifyRequest): string {
  const { auth } = request;
  return JSON.stringify([
    request.routeOptions.url,
    auth.userId,
    auth.companyId,
    auth.isAdmin,
    auth.isDepartmentAdmin,
    auth.scopePath,
    auth.roleId,
    auth.isOperator ?? false,
    request.language,
    request.body ?? null,
  ]);
}

/**
 * Answers a page-load read in the envelope, from the answers reused between changes: what is
 * reused is the envelope already serialised, so a reused answer costs neither the database nor
 * its JSON (a day of history at 1 000 points is most of a request's work). The routes that use
 * it have no response schema: Fastify would have sent the same `JSON.stringify`.
 */
export async function sendAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  compute: () => Promise<unknown>,
): Promise<FastifyReply> {
  const json = await request.server.answers.answer(answerKey(request), async () =>
    JSON.stringify(ok(await compute())),
  );
  return reply.type('application/json; charset=utf-8').send(json);
}
