import { describe, expect, it } from 'vitest';
import type { CommittedReading } from '../ingest/write-batch';
import { findBackfillExcursions } from './alarm-backfill';
import {
  type EngineAction,
  type EngineInput,
  type EngineState,
  evaluate,
  initialState,
  inSlot,
  type ValueRule,
} from './alarm-engine';

/** Monday 2024-01-08 00:00 UTC; readings are given in seconds after it. */
const MONDAY = Date.UTC(2024, 0, 8);
const HOUR = 3600;

const base: ValueRule = {
  kind: 'overLimit',
  min: 2,
  max: 8,
  preMin: null,
  preMax: null,
  delayMs: 0,
  hysteresis: 0,
  level: 1,
  slot: { allDay: true, periods: [], weekdays: [1, 2, 3, 4, 5, 6, 7], timeZone: 'UTC' },
};

type Step = [seconds: number, value: number, extra?: Partial<Pick<EngineInput, 'mode'>>];

/** One line per action: `raise overLimit L1 @60 from 0`, `clear @200`. */
function describeAction(a: EngineAction): string {
  const at = (ts: number) => (ts - MONDAY) / 1000;
  switch (a.kind) {
    case 'raise':
      return `raise ${a.alarmType} L${a.level} @${at(a.ts)} from ${at(a.excursionStart)}`;
    case 'clear':
      return `clear @${at(a.ts)}`;
  }
}

function run(rule: ValueRule, steps: Step[], start: EngineState = initialState()) {
  let state = start;
  const log: string[] = [];
  for (const [s, value, extra] of steps) {
    const step = evaluate(rule, state, {
      ts: MONDAY + s * 1000,
      value,
      mode: extra?.mode ?? 'normal',
    });
    state = step.state;
    log.push(...step.actions.map(describeAction));
  }
  return { state, log };
}

const cases: { name: string; rule?: Partial<ValueRule>; steps: Step[]; expected: string[] }[] = [
  {
    name: 'in range: nothing',
    steps: [
      [0, 5],
      [60, 7.9],
      [120, 2],
    ],
    expected: [],
  },
  {
    name: 'no delay: the first value out alarms',
    steps: [
      [0, 5],
      [10, 9.4],
    ],
    expected: ['raise overLimit L1 @10 from 10'],
  },
  { name: 'below the minimum alarms too', steps: [[0, 1.5]], expected: ['raise overLimit L1 @0 from 0'] },
  {
    name: 'delay: the condition must hold for the delay (reading time)',
    rule: { delayMs: 60_000 },
    steps: [
      [0, 9],
      [30, 9],
      [59, 9],
      [60, 9],
      [90, 9],
    ],
    expected: ['raise overLimit L1 @60 from 0'],
  },
  {
    name: 'delay: a value back in range restarts the delay',
    rule: { delayMs: 60_000 },
    steps: [
      [0, 9],
      [30, 5],
      [60, 9],
      [90, 9],
      [120, 9],
    ],
    expected: ['raise overLimit L1 @120 from 60'],
  },
  {
    name: 'hysteresis: clears only inside [min + h, max - h]',
    rule: { hysteresis: 1 },
    steps: [
      [0, 9],
      [10, 7.5],
      [20, 7.01],
      [30, 7],
      [40, 9],
    ],
    expected: ['raise overLimit L1 @0 from 0', 'clear @30', 'raise overLimit L1 @40 from 40'],
  },
  {
    name: 'hysteresis at the lower limit',
    rule: { hysteresis: 0.5 },
    steps: [
      [0, 1],
      [10, 2.4],
      [20, 2.5],
    ],
    expected: ['raise overLimit L1 @0 from 0', 'clear @20'],
  },
  {
    name: 'pre-alarm, then over-limit in the same excursion, one clear',
    rule: { preMin: 3, preMax: 7 },
    steps: [
      [0, 7.5],
      [10, 8.5],
      [20, 6],
    ],
    expected: ['raise preAlarm L1 @0 from 0', 'raise overLimit L1 @10 from 0', 'clear @20'],
  },
  {
    // Reminders and escalation run on the server's clock (alarm-follow-ups.ts): an hour of
    // reading time out of range, arriving in one upload, is one alarm and nothing more.
    name: 'reading time never reminds or escalates: a long excursion is one raise',
    steps: [
      [0, 9],
      [600, 9],
      [1800, 9],
      [3600, 9],
      [3660, 5],
    ],
    expected: ['raise overLimit L1 @0 from 0', 'clear @3660'],
  },
  {
    name: 'time slot: no alarm outside the period, alarm inside',
    rule: {
      slot: {
        allDay: false,
        periods: [{ start: '08:00', end: '17:00' }],
        weekdays: [1, 2, 3, 4, 5, 6, 7],
        timeZone: 'UTC',
      },
    },
    steps: [
      [7 * HOUR, 9],
      [7 * HOUR + 1800, 9],
      [8 * HOUR, 9],
    ],
    expected: [`raise overLimit L1 @${8 * HOUR} from ${8 * HOUR}`],
  },
  {
    name: 'time slot: several periods a day, the second one counts',
    rule: {
      slot: {
        allDay: false,
        periods: [
          { start: '06:00', end: '07:00' },
          { start: '12:00', end: '13:00' },
        ],
        weekdays: [1, 2, 3, 4, 5, 6, 7],
        timeZone: 'UTC',
      },
    },
    steps: [
      [9 * HOUR, 9],
      [12 * HOUR + 60, 9],
    ],
    expected: [`raise overLimit L1 @${12 * HOUR + 60} from ${12 * HOUR + 60}`],
  },
  {
    name: 'time slot: an overnight period (22:00-06:00) covers 23:00',
    rule: {
      slot: {
        allDay: false,
        periods: [{ start: '22:00', end: '06:00' }],
        weekdays: [1, 2, 3, 4, 5, 6, 7],
        timeZone: 'UTC',
      },
    },
    steps: [
      [21 * HOUR, 9],
      [22 * HOUR, 5],
      [23 * HOUR, 9],
    ],
    expected: [`raise overLimit L1 @${23 * HOUR} from ${23 * HOUR}`],
  },
  {
    name: 'time slot: read in the setting time zone (08:00-17:00 Shanghai = 00:00-09:00 UTC)',
    rule: {
      slot: {
        allDay: false,
        periods: [{ start: '08:00', end: '17:00' }],
        weekdays: [1, 2, 3, 4, 5, 6, 7],
        timeZone: 'Asia/Shanghai',
      },
    },
    steps: [
      [10 * HOUR, 9],
      [10 * HOUR + 60, 5],
      [HOUR, 9],
    ],
    expected: [`raise overLimit L1 @${HOUR} from ${HOUR}`],
  },
  {
    name: 'weekdays: Monday-Friday only; Sunday raises nothing, Monday does',
    rule: { slot: { allDay: true, periods: [], weekdays: [1, 2, 3, 4, 5], timeZone: 'UTC' } },
    // -1 day = Sunday 2024-01-07.
    steps: [
      [-24 * HOUR, 9],
      [-23 * HOUR, 9],
      [0, 9],
    ],
    expected: ['raise overLimit L1 @0 from 0'],
  },
  {
    name: 'weekdays: 7 is Sunday',
    rule: { slot: { allDay: true, periods: [], weekdays: [7], timeZone: 'UTC' } },
    steps: [
      [0, 9],
      [-24 * HOUR, 9],
    ],
    expected: [`raise overLimit L1 @${-24 * HOUR} from ${-24 * HOUR}`],
  },
  {
    name: 'modes: loading and defrost raise no alarm; normal does',
    steps: [
      [0, 12, { mode: 'loading' }],
      [60, 14, { mode: 'defrost' }],
      [120, 9],
    ],
    expected: ['raise overLimit L1 @120 from 120'],
  },
  {
    name: 'modes: loading interrupts a pending delay',
    rule: { delayMs: 60_000 },
    steps: [
      [0, 9],
      [30, 9, { mode: 'loading' }],
      [60, 9],
      [90, 9],
      [120, 9],
    ],
    expected: ['raise overLimit L1 @120 from 60'],
  },
  {
    name: 'modes: an alarm can clear while defrosting',
    steps: [
      [0, 9],
      [60, 9, { mode: 'defrost' }],
      [120, 5, { mode: 'defrost' }],
    ],
    expected: ['raise overLimit L1 @0 from 0', 'clear @120'],
  },
  {
    name: 'abnormal: judges the measuring range',
    rule: { kind: 'abnormal', min: -40, max: 85 },
    steps: [
      [0, 20],
      [10, 120],
      [20, 20],
    ],
    expected: ['raise abnormal L1 @10 from 10', 'clear @20'],
  },
];

describe('alarm engine rules', () => {
  it.each(cases)('$name', ({ rule, steps, expected }) => {
    expect(run({ ...base, ...rule }, steps).log).toEqual(expected);
  });

  it('resumes from a saved state exactly as if it had never stopped (restart)', () => {
    const rule = { ...base, delayMs: 30_000 };
    const steps: Step[] = [
      [0, 9],
      [30, 9],
      [90, 9],
      [150, 9],
      [210, 9],
      [270, 5],
    ];
    const straight = run(rule, steps).log;
    const first = run(rule, steps.slice(0, 3));
    // The state crosses the database as JSON.
    const saved = JSON.parse(JSON.stringify(first.state)) as EngineState;
    const resumed = run(rule, steps.slice(3), saved);
    expect([...first.log, ...resumed.log]).toEqual(straight);
    expect(straight).toEqual(['raise overLimit L1 @30 from 0', 'clear @270']);
  });

  it('keeps the peak of the excursion apart from the latest reading, pending time included, per direction', () => {
    const above = run(base, [
      [0, 9],
      [60, 12.5],
      [120, 10],
    ]);
    expect(above.state.peak).toBe(12.5);
    const pending = evaluate({ ...base, delayMs: 120_000 }, initialState(), {
      ts: MONDAY,
      value: 11,
      mode: 'normal',
    });
    const raised = evaluate({ ...base, delayMs: 120_000 }, pending.state, {
      ts: MONDAY + 120_000,
      value: 9,
      mode: 'normal',
    });
    expect(raised.actions).toEqual([expect.objectContaining({ kind: 'raise', value: 9, peak: 11 })]);
    // Below the range the peak is the lowest reading.
    expect(
      run(base, [
        [0, 1],
        [60, -3],
        [120, 0],
      ]).state.peak,
    ).toBe(-3);
  });

  it('inSlot: periods end exclusive, weekdays 1-7 = Monday-Sunday', () => {
    const slot = {
      allDay: false,
      periods: [{ start: '08:00', end: '17:00' }],
      weekdays: [1],
      timeZone: 'UTC',
    };
    expect(inSlot(slot, MONDAY + 8 * HOUR * 1000)).toBe(true);
    expect(inSlot(slot, MONDAY + 17 * HOUR * 1000)).toBe(false);
    expect(inSlot(slot, MONDAY + (24 + 9) * HOUR * 1000)).toBe(false);
  });
});

describe('back-fill excursions', () => {
  const reading = (s: number, value: number): CommittedReading => ({
    companyId: 1,
    deviceId: 1,
    sensorId: 1,
    channel: 1,
    ts: MONDAY + s * 1000,
    value,
    mode: 'normal',
    backfilled: true,
  });

  it('finds each excursion once, in time order whatever the arrival order, with its end', () => {
    const found = findBackfillExcursions({ ...base, delayMs: 60_000 }, [
      reading(300, 9),
      reading(0, 9),
      reading(60, 9),
      reading(120, 5),
      reading(240, 9),
      reading(360, 9),
    ]);
    expect(
      found.map((f) => [f.raise.excursionStart - MONDAY, f.endTs === null ? null : f.endTs - MONDAY]),
    ).toEqual([
      [0, 120_000],
      [240_000, null],
    ]);
  });
});
