import { Form, Radio } from 'antd';

/** The file formats every export offers (the server's one export writer, audit/export-file.ts). */
export type ExportFileFormat = 'xlsx' | 'csv' | 'pdf';

const FORMATS: { value: ExportFileFormat; label: string }[] = [
  { value: 'xlsx', label: 'Excel (.xlsx)' },
  { value: 'csv', label: 'CSV (.csv)' },
  { value: 'pdf', label: 'PDF (.pdf)' },
];

/**
 * The format field of every export dialog, so each offers the same formats the server writes
 * (issue 15 gave every export a PDF). Label and message are the dialog's own, already translated.
 */
export function ExportFormatField({
  label,
  requiredMessage,
  testId,
}: {
  label: string;
  requiredMessage: string;
  testId: string;
}) {
  return (
    <Form.Item name="format" label={label} rules={[{ required: true, message: requiredMessage }]}>
      <Radio.Group data-testid={testId}>
        {FORMATS.map((f) => (
          <Radio key={f.value} value={f.value}>
            {f.label}
          </Radio>
        ))}
      </Radio.Group>
    </Form.Item>
  );
}
