import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n';
import { demoPowers, stubServer } from '../../../test/fake-server';
import { renderApp, resetBrowserState } from '../../../test/render-app';
import { device, sensor } from '../../devices/test-fixtures';
import { alarmSetting } from '../test-fixtures';
import { defaultValues, type SettingValues, validateSetting } from './setting-form';

const PAGE = '/alarm/alarmSetting';
const monitor = device({
  id: '1',
  sensors: [sensor({ id: '11' }), sensor({ id: '12', channel: 2, name: 'Humidity' })],
});

function form(overrides: Partial<SettingValues> = {}): SettingValues {
  return { ...defaultValues('11', '7'), max: 8, ...overrides };
}

function keys(values: SettingValues) {
  const result = validateSetting(values, '1');
  return result.ok ? [] : result.errors.map((e) => `${e.name.join('.')}:${e.key}`);
}

describe('alarm setting rules (contract schema)', () => {
  it('accepts an over-limit setting and fills the defaults', () => {
    const result = validateSetting(form(), '1');
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.data).toMatchObject({
        carrier: 'sensor',
        targetId: '11',
        level: 1,
        alarmType: 'overLimit',
        max: 8,
        repeat: 3,
        timeSlot: 'allDay',
        periods: [],
        weekdays: [1, 2, 3, 4, 5, 6, 7],
        notifierIds: ['7'],
      });
    }
    const deviceWide = validateSetting(form({ carrier: 'device' }), '1');
    expect(deviceWide.ok && deviceWide.data.targetId).toBe('1');
  });

  it('needs min below max and a limit for over-limit', () => {
    expect(keys(form({ min: 9, max: 8 }))).toContain('max:rule.minMax');
    expect(keys(form({ min: null, max: null }))).toContain('max:rule.limitRequired');
  });

  it('keeps the pre-alarm inside the alarm limits', () => {
    expect(keys(form({ min: 2, max: 8, preMax: 9 }))).toContain('preMax:rule.preAlarm');
    expect(keys(form({ min: 2, max: 8, preMin: 1 }))).toContain('preMin:rule.preAlarm');
    expect(keys(form({ alarmType: 'preAlarm', max: 8 }))).toContain('preMax:rule.limitRequired');
    expect(keys(form({ min: 2, max: 8, preMin: 3, preMax: 7 }))).toEqual([]);
  });

  it('limits level to 1-3 and repeat to 1-99', () => {
    expect(keys(form({ level: 4 }))).toContain('level:rule.level');
    expect(keys(form({ level: 0 }))).toContain('level:rule.level');
    expect(keys(form({ repeat: 0 }))).toContain('repeat:rule.repeat');
    expect(keys(form({ repeat: 100 }))).toContain('repeat:rule.repeat');
    expect(keys(form({ repeat: 99 }))).toEqual([]);
  });

  it('needs periods when the slot is chosen periods, and rejects repeated time points', () => {
    expect(keys(form({ timeSlot: 'periods', periods: [] }))).toContain('periods:rule.periodsRequired');
    expect(
      keys(
        form({
          timeSlot: 'periods',
          periods: [
            { start: '08:00', end: '12:00' },
            { start: '11:00', end: '14:00' },
          ],
        }),
      ),
    ).toContain('periods:rule.repeatedTimePoint');
    expect(keys(form({ timeSlot: 'periods', periods: [{ start: '8am', end: '12:00' }] }))).toContain(
      'periods.0.start:rule.timePoint',
    );
    expect(keys(form({ timeSlot: 'periods', periods: [{ start: '22:00', end: '06:00' }] }))).toEqual([]);
  });

  it('sends each escalation level with its own people and channels; a level with people needs a channel', () => {
    const result = validateSetting(
      form({
        escalateAfterSeconds: 300,
        level2Notifiers: ['8'],
        level2Channels: ['call'],
        level3Notifiers: [],
        level3Channels: [],
      }),
      '1',
    );
    expect(result.ok && result.data).toMatchObject({
      escalateAfterSeconds: 300,
      escalation: [{ level: 2, notifierIds: ['8'], channels: ['call'] }],
    });
    expect(keys(form({ escalateAfterSeconds: 300, level3Notifiers: ['9'], level3Channels: [] }))).toEqual([
      'level3Channels:rule.required',
    ]);
  });

  it('needs at least one weekday', () => {
    expect(keys(form({ weekdays: [] }))).toContain('weekdays:rule.weekdays');
  });
});

describe('alarm setting page', () => {
  beforeEach(async () => {
    resetBrowserState();
    localStorage.setItem('accessToken', 't');
    await i18n.changeLanguage('en');
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  function serve(initial = [alarmSetting()], serviceAuthTags?: string[]) {
    let settings = initial;
    const server = stubServer({
      user: { id: '7' },
      overrides: {
        ...(serviceAuthTags
          ? { '/api/index/getUserPowers': () => ({ ...demoPowers(), serviceAuthTags }) }
          : {}),
        '/api/device/pageDevices': () => ({ list: [monitor], total: 1, pageNum: 1, pageSize: 50 }),
        '/api/device/deviceDetail': () => monitor,
        '/api/deviceAlarmRule/alarmList': () => ({
          list: settings,
          total: settings.length,
          pageNum: 1,
          pageSize: 200,
        }),
        '/api/deviceAlarmRule/saveAlarmSetting': (body) => {
          settings = [...settings, alarmSetting({ ...(body as object), id: '6' })];
          return { id: '6' };
        },
        '/api/deviceAlarmRule/deleteAlarmSetting': (body) => {
          settings = settings.filter((s) => s.id !== body.id);
          return null;
        },
        '/api/personnel/memberOptions': () => [
          { id: '7', name: 'Demo Admin' },
          { id: '8', name: 'Siti Aminah' },
          { id: '9', name: 'Wang Lei' },
        ],
      },
    });
    return server;
  }

  function bodies(server: ReturnType<typeof stubServer>, path: string) {
    return server.mock.calls
      .filter(([input]) => String(input) === path)
      .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);
  }

  async function pickMonitor() {
    await screen.findByTestId('page-title');
    fireEvent.mouseDown(within(screen.getByTestId('setting-device')).getByRole('combobox'));
    await userEvent.click(await screen.findByTitle('DEMO0001 · Vaccine fridge 1'));
    await screen.findByTestId('setting-row-5');
  }

  it('lists the settings of the picked monitor and narrows them to a sensor', async () => {
    const server = serve();
    renderApp(PAGE);
    await pickMonitor();
    expect(bodies(server, '/api/deviceAlarmRule/alarmList')[0]).toEqual({
      deviceId: '1',
      pageNum: 1,
      pageSize: 200,
    });
    const row = screen.getByTestId('setting-row-5');
    expect(row).toHaveTextContent('1 · Temperature');
    expect(row).toHaveTextContent('Over-limit alarm');
    expect(row).toHaveTextContent('2 ~ 8');
    fireEvent.mouseDown(within(screen.getByTestId('setting-sensor-filter')).getByRole('combobox'));
    await userEvent.click(await screen.findByTitle('2 · Humidity'));
    await waitFor(() =>
      expect(bodies(server, '/api/deviceAlarmRule/alarmList').at(-1)).toEqual({
        sensorId: '12',
        pageNum: 1,
        pageSize: 200,
      }),
    );
  });

  it('adds a setting: schema errors stop the call, the reminder shows below 3 notifiers', async () => {
    const server = serve();
    renderApp(PAGE);
    await pickMonitor();
    await userEvent.click(screen.getByTestId('setting-add'));
    expect(await screen.findByTestId('few-notifiers')).toHaveTextContent('Fewer than 3 notifiers');

    await userEvent.type(screen.getByTestId('setting-min'), '9');
    await userEvent.type(screen.getByTestId('setting-max'), '8');
    await userEvent.click(screen.getByTestId('setting-submit'));
    expect(await screen.findByText('The lower limit must be below the upper limit')).toBeInTheDocument();
    expect(bodies(server, '/api/deviceAlarmRule/saveAlarmSetting')).toHaveLength(0);

    await userEvent.clear(screen.getByTestId('setting-min'));
    await userEvent.type(screen.getByTestId('setting-min'), '2');
    await userEvent.clear(screen.getByTestId('setting-repeat'));
    await userEvent.type(screen.getByTestId('setting-repeat'), '1');
    await userEvent.click(screen.getByTestId('setting-submit'));
    await waitFor(() => expect(bodies(server, '/api/deviceAlarmRule/saveAlarmSetting')).toHaveLength(1));
    expect(bodies(server, '/api/deviceAlarmRule/saveAlarmSetting')[0]).toMatchObject({
      carrier: 'sensor',
      targetId: '11',
      alarmType: 'overLimit',
      level: 1,
      min: 2,
      max: 8,
      repeat: 1,
      timeSlot: 'allDay',
      weekdays: [1, 2, 3, 4, 5, 6, 7],
      notifierIds: ['7'],
    });
    expect(await screen.findByTestId('setting-row-6')).toBeInTheDocument();
  });

  it('offers only the channels among the company services, and lists a chosen one that is off to take away', async () => {
    // SMS is off for the company; the setting being edited still names it.
    serve(
      [alarmSetting({ channels: ['email', 'sms'] })],
      ['service:alarmEmail', 'service:alarmCall', 'service:alarmWechat', 'service:alarmWhatsapp'],
    );
    renderApp(PAGE);
    await pickMonitor();
    await userEvent.click(screen.getByTestId('setting-add'));
    const channels = await screen.findByTestId('setting-channels');
    expect(within(channels).getByText('E-mail')).toBeInTheDocument();
    expect(within(channels).queryByText(/SMS/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await userEvent.click(within(screen.getByTestId('setting-row-5')).getByTestId('setting-edit'));
    const editing = await screen.findByTestId('setting-channels');
    await waitFor(() => expect(within(editing).getByText('SMS (not in your services)')).toBeInTheDocument());
  });

  it('edits and deletes a setting', async () => {
    const server = serve();
    renderApp(PAGE);
    await pickMonitor();
    await userEvent.click(within(screen.getByTestId('setting-row-5')).getByTestId('setting-edit'));
    const max = await screen.findByTestId('setting-max');
    await waitFor(() => expect(max).toHaveValue('8'));
    await userEvent.clear(max);
    await userEvent.type(max, '10');
    await userEvent.click(screen.getByTestId('setting-submit'));
    await waitFor(() =>
      expect(bodies(server, '/api/deviceAlarmRule/saveAlarmSetting')[0]).toMatchObject({
        id: '5',
        max: 10,
        timeZone: 'UTC',
      }),
    );

    await userEvent.click(within(screen.getByTestId('setting-row-5')).getByTestId('setting-delete'));
    await userEvent.click(await screen.findByRole('button', { name: 'OK' }));
    await waitFor(() =>
      expect(bodies(server, '/api/deviceAlarmRule/deleteAlarmSetting')).toEqual([{ id: '5' }]),
    );
  });

  it('keeps the escalation of a setting through an edit, and shows who each level reaches', async () => {
    const server = serve([
      alarmSetting({
        escalateAfterSeconds: 300,
        escalation: [{ level: 2, notifierIds: ['8'], channels: ['call'] }],
      }),
    ]);
    renderApp(PAGE);
    await pickMonitor();
    await userEvent.click(within(screen.getByTestId('setting-row-5')).getByTestId('setting-edit'));
    await waitFor(() => expect(screen.getByTestId('setting-escalateAfterSeconds')).toHaveValue('300'));
    const level2 = await screen.findByTestId('setting-level-2');
    expect(level2).toHaveTextContent('Level 2: notify');
    expect(within(level2).getByRole('checkbox', { name: 'Phone call' })).toBeChecked();
    expect(screen.getByTestId('setting-level-3')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('setting-submit'));
    await waitFor(() =>
      expect(bodies(server, '/api/deviceAlarmRule/saveAlarmSetting')[0]).toMatchObject({
        id: '5',
        escalateAfterSeconds: 300,
        escalation: [{ level: 2, notifierIds: ['8'], channels: ['call'] }],
      }),
    );
  });

  it("offers the people of the caller's scope as notifiers; three silence the reminder", async () => {
    const server = serve();
    renderApp(PAGE);
    await pickMonitor();
    await userEvent.click(screen.getByTestId('setting-add'));
    expect(await screen.findByTestId('few-notifiers')).toBeInTheDocument();
    await waitFor(() => expect(bodies(server, '/api/personnel/memberOptions')).toHaveLength(1));
    fireEvent.mouseDown(within(screen.getByTestId('setting-notifiers')).getByRole('combobox'));
    await userEvent.click((await screen.findAllByTitle('Siti Aminah')).at(-1)!);
    await userEvent.click((await screen.findAllByTitle('Wang Lei')).at(-1)!);
    await waitFor(() => expect(screen.queryByTestId('few-notifiers')).toBeNull());
    await userEvent.type(screen.getByTestId('setting-max'), '8');
    await userEvent.click(screen.getByTestId('setting-submit'));
    await waitFor(() => expect(bodies(server, '/api/deviceAlarmRule/saveAlarmSetting')).toHaveLength(1));
    expect(bodies(server, '/api/deviceAlarmRule/saveAlarmSetting')[0]!.notifierIds).toEqual(['7', '8', '9']);
  });
});
