import {
  REPORT_TASK_LIST_MAX,
  REPORT_TASK_NAME_MAX,
  ReportFormats,
  ReportFrequencies,
  type ReportTaskType,
  ReportTaskTypes,
  type ReportTaskView,
} from '@coldchain/contract';
import { Form, Radio, Select, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type Option,
  REPORT_PATHS,
  type TaskInput,
  useMemberOptions,
  useSaveTask,
  useSearchOptions,
} from '../api';
import { RecipientFields, TaskFormShell, TaskNameField } from '../shared/TaskFields';

interface Values {
  name: string;
  type: ReportTaskType;
  frequency: TaskInput['frequency'];
  format: TaskInput['format'];
  deviceIds: string[];
  equipmentId?: string;
  recipientIds: string[];
  emails: string[];
}

const SEARCH_PAUSE_MS = 300;

/** The browser's zone: the schedule and the file's times follow it (docs/decisions.md, backup tasks). */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * A searchable picker over a list call: the server is asked once typing pauses, and the names of
 * values already chosen stay known while the search shows other rows.
 */
function SearchPicker({
  path,
  multiple,
  value,
  onChange,
  testId,
  placeholder,
}: {
  path: string;
  multiple: boolean;
  value?: string | string[];
  onChange?: (value: string | string[]) => void;
  testId: string;
  placeholder: string;
}) {
  const [search, setSearch] = useState('');
  const [keyword, setKeyword] = useState('');
  const known = useRef(new Map<string, string>());
  useEffect(() => {
    const timer = setTimeout(() => setKeyword(search.trim()), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [search]);
  const found = useSearchOptions(path, keyword, true, (row) => `${row.name} (${row.serial})`);
  for (const option of found.data ?? []) known.current.set(option.value, option.label);
  const chosen = (Array.isArray(value) ? value : value ? [value] : []).map((id) => ({
    value: id,
    label: known.current.get(id) ?? id,
  }));
  const options: Option[] = [
    ...chosen,
    ...(found.data ?? []).filter((o) => !chosen.some((c) => c.value === o.value)),
  ];
  return (
    <Select
      mode={multiple ? 'multiple' : undefined}
      showSearch={{ filterOption: false, onSearch: setSearch }}
      value={value}
      onChange={(next) => {
        onChange?.(next as string | string[]);
        setSearch('');
      }}
      options={options}
      loading={found.isFetching}
      placeholder={placeholder}
      allowClear
      maxCount={multiple ? REPORT_TASK_LIST_MAX : undefined}
      data-testid={testId}
    />
  );
}

/** Creates (no task) or edits a data report backup task. */
export function TaskFormModal({ task, onClose }: { task: ReportTaskView | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const save = useSaveTask();
  const type = Form.useWatch('type', form) ?? task?.type ?? 'history';
  const members = useMemberOptions(true);
  const timeZone = task?.timeZone ?? browserTimeZone();
  const initialValues = useMemo<Partial<Values>>(
    () =>
      task
        ? {
            name: task.name,
            type: task.type,
            frequency: task.frequency,
            format: task.format,
            deviceIds: task.deviceIds,
            equipmentId: task.equipmentIds[0],
            recipientIds: task.recipientIds,
            emails: task.emails,
          }
        : {
            type: 'history',
            frequency: 'daily',
            format: 'xlsx',
            deviceIds: [],
            recipientIds: [],
            emails: [],
          },
    [task],
  );

  const saveTask = (values: Values) =>
    save.mutateAsync({
      ...(task ? { id: task.id } : {}),
      name: values.name.trim(),
      type: values.type,
      frequency: values.frequency,
      format: values.format,
      deviceIds: values.type === 'history' || values.type === 'alarm' ? (values.deviceIds ?? []) : [],
      equipmentIds: values.type === 'equipment' && values.equipmentId ? [values.equipmentId] : [],
      recipientIds: values.recipientIds ?? [],
      emails: (values.emails ?? []).map((e) => e.trim()),
      timeZone,
    });

  return (
    <TaskFormShell
      ns="reports"
      editing={task !== null}
      form={form}
      initialValues={initialValues}
      saving={save.isPending}
      onSave={saveTask}
      onClose={onClose}
    >
      <TaskNameField ns="reports" max={REPORT_TASK_NAME_MAX} />
      <Form.Item name="type" label={t('reports.field.type')} rules={[{ required: true }]}>
        <Select
          data-testid="task-type"
          options={ReportTaskTypes.map((value) => ({ value, label: t(`reports.type.${value}`) }))}
        />
      </Form.Item>
      <Form.Item
        name="frequency"
        label={t('reports.field.frequency')}
        extra={t('reports.task.timeZone', { zone: timeZone })}
      >
        <Radio.Group data-testid="task-frequency">
          {ReportFrequencies.map((value) => (
            <Radio key={value} value={value} data-testid={`task-frequency-${value}`}>
              {t(`reports.frequency.${value}`)}
            </Radio>
          ))}
        </Radio.Group>
      </Form.Item>
      <Form.Item name="format" label={t('reports.field.format')}>
        <Radio.Group data-testid="task-format">
          {ReportFormats.map((value) => (
            <Radio key={value} value={value} data-testid={`task-format-${value}`}>
              {value.toUpperCase()}
            </Radio>
          ))}
        </Radio.Group>
      </Form.Item>
      {(type === 'history' || type === 'alarm') && (
        <Form.Item
          name="deviceIds"
          label={t('reports.field.devices')}
          extra={type === 'alarm' ? t('reports.task.allDevicesWhenEmpty') : undefined}
          rules={
            type === 'history'
              ? [{ required: true, type: 'array', min: 1, message: t('reports.rule.devicesRequired') }]
              : []
          }
        >
          <SearchPicker
            path={REPORT_PATHS.pageDevices}
            multiple
            testId="task-devices"
            placeholder={t('reports.task.searchDevices')}
          />
        </Form.Item>
      )}
      {type === 'equipment' && (
        <Form.Item
          name="equipmentId"
          label={t('reports.field.equipment')}
          rules={[{ required: true, message: t('reports.rule.equipmentRequired') }]}
        >
          <SearchPicker
            path={REPORT_PATHS.pageEquipment}
            multiple={false}
            testId="task-equipment"
            placeholder={t('reports.task.searchEquipment')}
          />
        </Form.Item>
      )}
      <RecipientFields ns="reports" kind="recipients" max={REPORT_TASK_LIST_MAX} members={members} />
      <Typography.Text type="secondary">{t('reports.task.ownerNote')}</Typography.Text>
    </TaskFormShell>
  );
}
