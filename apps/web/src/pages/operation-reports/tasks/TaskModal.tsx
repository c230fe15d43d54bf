import {
  OPERATION_NOTIFIERS_MAX,
  OPERATION_TASK_NAME_MAX,
  type OperationReportDuration,
  OperationReportDurations,
  type OperationTaskView,
} from '@coldchain/contract';
import { DatePicker, Form, Radio, Select, Space, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useDepartmentGroups } from '../../groups/queries';
import { RecipientFields, TaskFormShell, TaskNameField } from '../../reports/shared/TaskFields';
import { browserTimeZone, useMemberOptions, useSaveOperationTask } from '../api';

interface Values {
  name: string;
  /** '' for the whole company. */
  scope: string;
  duration: OperationReportDuration;
  startDate: Dayjs;
  startHour: number;
  notifierIds: string[];
  emails: string[];
}

const COMPANY = '';

/** Creates (no task) or edits an operation report task. */
export function TaskModal({ task, onClose }: { task: OperationTaskView | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const save = useSaveOperationTask();
  const members = useMemberOptions(true);
  const departments = useDepartmentGroups(true);
  const timeZone = task?.timeZone ?? browserTimeZone();
  // The root department stands for the company; a member of a department sees only theirs and below.
  const seesCompany = (departments.data ?? []).some((d) => d.pid === '0');
  const scopeOptions = [
    ...(seesCompany || !departments.data
      ? [{ value: COMPANY, label: t('operationReports.wholeCompany') }]
      : []),
    ...(departments.data ?? [])
      .filter((d) => d.pid !== '0')
      .map((d) => ({ value: d.id, label: `${'\u00a0\u00a0'.repeat(Math.max(0, d.level - 1))}${d.name}` })),
  ];
  // A member of a department may not choose the company: a new task starts on their department.
  const firstDepartment = scopeOptions.find((o) => o.value !== COMPANY)?.value;
  useEffect(() => {
    if (!task && departments.data && !seesCompany && firstDepartment && !form.getFieldValue('scope'))
      form.setFieldValue('scope', firstDepartment);
  }, [task, departments.data, seesCompany, firstDepartment, form]);
  const initialValues = useMemo<Partial<Values>>(
    () =>
      task
        ? {
            name: task.name,
            scope: task.departmentId ?? COMPANY,
            duration: task.duration,
            startDate: dayjs(task.startDate),
            startHour: task.startHour,
            notifierIds: task.notifierIds,
            emails: task.emails,
          }
        : {
            scope: COMPANY,
            duration: 'day',
            startDate: dayjs().startOf('day'),
            startHour: 0,
            notifierIds: [],
            emails: [],
          },
    [task],
  );

  const saveTask = (values: Values) =>
    save.mutateAsync({
      ...(task ? { id: task.id } : {}),
      name: values.name.trim(),
      ...(values.scope ? { departmentId: values.scope } : {}),
      duration: values.duration,
      startDate: values.startDate.format('YYYY-MM-DD'),
      startHour: values.startHour,
      notifierIds: values.notifierIds ?? [],
      emails: (values.emails ?? []).map((e) => e.trim()),
      timeZone,
    });

  return (
    <TaskFormShell
      ns="operationReports"
      editing={task !== null}
      form={form}
      initialValues={initialValues}
      saving={save.isPending}
      onSave={saveTask}
      onClose={onClose}
    >
      <TaskNameField ns="operationReports" max={OPERATION_TASK_NAME_MAX} />
      <Form.Item name="scope" label={t('operationReports.field.scope')}>
        <Select loading={departments.isLoading} options={scopeOptions} data-testid="task-scope" />
      </Form.Item>
      <Form.Item name="duration" label={t('operationReports.field.duration')}>
        <Radio.Group data-testid="task-duration">
          {OperationReportDurations.map((value) => (
            <Radio key={value} value={value} data-testid={`task-duration-${value}`}>
              {t(`operationReports.duration.${value}`)}
            </Radio>
          ))}
        </Radio.Group>
      </Form.Item>
      <Form.Item
        label={t('operationReports.field.start')}
        extra={t('operationReports.task.startHint', { zone: timeZone })}
        required
      >
        <Space.Compact style={{ width: '100%' }}>
          <Form.Item
            name="startDate"
            noStyle
            rules={[{ required: true, message: t('operationReports.rule.startRequired') }]}
          >
            <DatePicker
              allowClear={false}
              style={{ width: '60%' }}
              aria-label={t('operationReports.field.startDate')}
              data-testid="task-start-date"
            />
          </Form.Item>
          <Form.Item name="startHour" noStyle>
            <Select
              style={{ width: '40%' }}
              aria-label={t('operationReports.field.startHour')}
              options={Array.from({ length: 24 }, (_, hour) => ({
                value: hour,
                label: t('operationReports.task.hour', { hour: String(hour).padStart(2, '0') }),
              }))}
              data-testid="task-start-hour"
            />
          </Form.Item>
        </Space.Compact>
      </Form.Item>
      <RecipientFields
        ns="operationReports"
        kind="notifiers"
        max={OPERATION_NOTIFIERS_MAX}
        members={members}
      />
      <Typography.Text type="secondary">{t('operationReports.task.intro')}</Typography.Text>
    </TaskFormShell>
  );
}
