import { UploadOutlined } from '@ant-design/icons';
import type { InventoryCsvPreview } from '@coldchain/contract';
import { Alert, App, Button, Card, Flex, Input, List, Table, Tag, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useImportInventory, usePreviewInventory } from '../api';

const EXAMPLE =
  'serial,model,version,channels\nSIM2001,CC-TH2,standard,temperature:°C:-40:85|humidity:%RH:0:100';

/**
 * Imports the supplier's stock CSV (the format of `npm run admin -- inventory import`): a preview
 * first, listing every line and every bad line with its reason; importing needs a clean file.
 */
export function ImportCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [csv, setCsv] = useState('');
  const [preview, setPreview] = useState<InventoryCsvPreview | null>(null);
  const check = usePreviewInventory();
  const save = useImportInventory();

  const edit = (text: string) => {
    setCsv(text);
    setPreview(null);
  };
  const runPreview = () =>
    check
      .mutateAsync(csv)
      .then(setPreview)
      .catch(() => undefined);
  const runImport = () =>
    save
      .mutateAsync(csv)
      .then((result) => {
        void message.success(t('operator.inventory.imported', { ...result }));
        edit('');
      })
      .catch(() => undefined);

  return (
    <Card title={t('operator.inventory.importTitle')} style={{ marginBottom: 16 }}>
      <Typography.Paragraph type="secondary">{t('operator.inventory.format')}</Typography.Paragraph>
      <Input.TextArea
        value={csv}
        onChange={(e) => edit(e.target.value)}
        rows={6}
        placeholder={EXAMPLE}
        aria-label={t('operator.inventory.csv')}
        data-testid="inventory-csv"
        style={{ fontFamily: 'monospace', marginBottom: 12 }}
      />
      <Flex gap="small" wrap>
        <Upload
          accept=".csv,text/csv"
          showUploadList={false}
          beforeUpload={(file) => {
            void file.text().then(edit);
            return false;
          }}
        >
          <Button icon={<UploadOutlined />}>{t('operator.inventory.chooseFile')}</Button>
        </Upload>
        <Button
          onClick={runPreview}
          disabled={!csv.trim()}
          loading={check.isPending}
          data-testid="inventory-preview"
        >
          {t('operator.inventory.preview')}
        </Button>
        <Button
          type="primary"
          onClick={runImport}
          disabled={!preview || preview.problems.length > 0 || preview.lines.length === 0}
          loading={save.isPending}
          data-testid="inventory-import"
        >
          {t('operator.inventory.import')}
        </Button>
      </Flex>
      {preview && (
        <div style={{ marginTop: 16 }} data-testid="inventory-preview-result">
          {preview.problems.length > 0 ? (
            <Alert
              type="error"
              showIcon
              title={t('operator.inventory.problems', { count: preview.problems.length })}
              description={
                <List
                  size="small"
                  dataSource={preview.problems}
                  renderItem={(p) => (
                    <List.Item data-testid={`inventory-problem-${p.line}`}>
                      {t('operator.inventory.line', { line: p.line })}: {p.reason}
                    </List.Item>
                  )}
                />
              }
            />
          ) : (
            <Alert
              type="success"
              showIcon
              title={t('operator.inventory.clean', { count: preview.lines.length })}
            />
          )}
          <Table
            size="small"
            rowKey="serial"
            style={{ marginTop: 12 }}
            scroll={{ x: 'max-content' }}
            pagination={false}
            dataSource={preview.lines}
            columns={[
              { title: t('operator.inventory.serial'), dataIndex: 'serial', key: 'serial' },
              { title: t('operator.inventory.model'), dataIndex: 'model', key: 'model' },
              { title: t('operator.inventory.version'), dataIndex: 'version', key: 'version' },
              { title: t('operator.inventory.channels'), dataIndex: 'channelCount', key: 'channels' },
              {
                title: t('operator.inventory.state'),
                key: 'exists',
                render: (_, l) =>
                  l.exists ? (
                    <Tag>{t('operator.inventory.exists')}</Tag>
                  ) : (
                    <Tag color="blue">{t('operator.inventory.new')}</Tag>
                  ),
              },
            ]}
          />
        </div>
      )}
    </Card>
  );
}
