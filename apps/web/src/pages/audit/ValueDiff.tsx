import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { fieldChanges } from './format';

/** Old -> new, one line per changed field; the empty field name stands for the whole value. */
export function ValueDiff({ before, after, limit }: { before: unknown; after: unknown; limit?: number }) {
  const { t } = useTranslation();
  const changes = fieldChanges(before, after);
  if (changes.length === 0)
    return <Typography.Text type="secondary">{t('audit.operation.noChange')}</Typography.Text>;
  const shown = limit ? changes.slice(0, limit) : changes;
  return (
    <div data-testid="value-diff">
      {shown.map((c) => (
        <div key={c.field || '-'} data-testid={`diff-${c.field || 'value'}`}>
          {c.field ? <Typography.Text strong>{c.field}: </Typography.Text> : null}
          {c.before !== '' ? (
            <Typography.Text delete type="danger">
              {c.before}
            </Typography.Text>
          ) : null}
          {c.before !== '' && c.after !== '' ? ' → ' : null}
          {c.after !== '' ? <Typography.Text type="success">{c.after}</Typography.Text> : null}
        </div>
      ))}
      {shown.length < changes.length ? <Typography.Text type="secondary">…</Typography.Text> : null}
    </div>
  );
}
