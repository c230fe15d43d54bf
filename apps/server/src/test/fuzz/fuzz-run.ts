import fc from 'fast-check';
import { knownFinding } from './known-findings';

/*
 * The fuzz's settings and book-keeping, shared by the /api and device-protocol fuzz files.
 *
 *   FUZZ_RUNS  generated inputs per route and caller (default: a run of about a minute in CI)
 *   FUZZ_SEED  the seed (default fixed, so CI is repeatable; a failure prints the seed and path
 *              that replay it)
 *   FUZZ_ONLY  a regular expression: only the routes (`POST /api/...`, `MQTT up`) it matches
 */
export interface FuzzSettings {
  runs: number;
  seed: number;
  only: RegExp;
}

export function fuzzSettings(defaultRuns: number): FuzzSettings {
  const runs = Number(process.env.FUZZ_RUNS) || defaultRuns;
  const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 20_261_125;
  const only = new RegExp(process.env.FUZZ_ONLY ?? '');
  return { runs, seed, only };
}

/** Problems of one input, after the known findings were taken out. */
export class FindingLog {
  /** Known findings met, by route and problem: printed, not failed. */
  readonly known = new Map<string, number>();
  /** New problems: each fails the run, with the fast-check report that replays it. */
  readonly failures: string[] = [];

  /**
   * The problems of one input, unless the input is a known finding's (known-findings.ts): then
   * they are counted and printed, not failed. Returns the problems that fail the run.
   */
  sort(route: string, input: unknown, problems: string[]): string[] {
    if (problems.length === 0) return problems;
    const known = knownFinding(route, JSON.stringify(input) ?? '');
    if (!known) return problems;
    for (const problem of problems) {
      const key = `${route}: ${problem.slice(0, 100)}`;
      this.known.set(key, (this.known.get(key) ?? 0) + 1);
    }
    return [];
  }

  /**
   * Runs one fast-check property over `inputs`; the property throws with the problems of an input.
   * fast-check shrinks a failing input to a small one and names the seed and path that replay it.
   */
  async check<T>(
    route: string,
    inputs: fc.Arbitrary<T>,
    property: (input: T) => Promise<void>,
    settings: { runs: number; seed: number },
  ) {
    const result = await fc.check(fc.asyncProperty(inputs, property), {
      numRuns: settings.runs,
      seed: settings.seed,
      // Shrinking calls the server again for every candidate: keep it short.
      interruptAfterTimeLimit: 20_000,
    });
    if (result.failed) {
      const report = fc.defaultReportMessage(result) ?? 'failed';
      const error =
        result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
      this.failures.push(`${route}: ${truncate(error, 1_000)}\n${truncate(report, 2_000)}`);
    }
  }

  summary(): string {
    const known = [...this.known].map(([key, n]) => `  ${n}x ${key}`);
    return known.length ? `fuzz: known findings met (known-findings.ts):\n${known.join('\n')}` : '';
  }
}

function truncate(text: string, max: number) {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}

/** Error-level log lines of the app, captured so that a fault that is logged but not answered shows. */
export class ErrorLogCapture {
  private lines: string[] = [];
  readonly logger = {
    level: 'error',
    stream: { write: (line: string) => this.lines.push(line) },
  };

  /** The errors logged since the last call, one line each. */
  drain(): string[] {
    const lines = this.lines;
    this.lines = [];
    return lines.map((line) => {
      try {
        const entry = JSON.parse(line) as {
          msg?: string;
          err?: { message?: string; cause?: { message?: string } };
        };
        const cause = entry.err?.cause?.message ? ` (cause: ${entry.err.cause.message})` : '';
        return `logged error: ${entry.msg} ${entry.err?.message ?? ''}${cause}`.trim().slice(0, 400);
      } catch {
        return `logged error: ${line.slice(0, 300)}`;
      }
    });
  }
}
