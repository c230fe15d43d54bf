import { UploadOutlined } from '@ant-design/icons';
import type { UploadResult } from '@coldchain/contract';
import { Button, Checkbox, Flex, Form, Input, Radio, Upload } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { uploadFile } from '../../../api/request';
import { useNotify } from '../../../router/notify';
import { EQUIPMENT_PATHS } from '../api';
import { ATTACHMENT_MAX_BYTES, checkAttributeValue, OTHER_OPTION } from '../attribute-rules';
import type { AttributeValue, ChoiceValue, EquipmentAttribute } from '../types';

/** One archive attribute of the equipment form, its input chosen by the attribute's kind. */
export function AttributeValueField({ attribute, index }: { attribute: EquipmentAttribute; index: number }) {
  const { t } = useTranslation();
  const id = attribute.id ?? String(index);
  return (
    <Form.Item
      name={['attributes', id]}
      label={attribute.unit ? `${attribute.name} (${attribute.unit})` : attribute.name}
      required={attribute.required}
      extra={hintFor(t, attribute)}
      rules={[
        {
          validator: async (_, value: AttributeValue | undefined) => {
            const found = checkAttributeValue(attribute, value);
            if (found) throw new Error(t(`equipment.rule.${found.key}`, found.params));
          },
        },
      ]}
    >
      <ValueInput attribute={attribute} testId={`equipment-attribute-${index}`} />
    </Form.Item>
  );
}

function hintFor(t: TFunction, attribute: EquipmentAttribute): string | undefined {
  if (attribute.kind === 'text')
    return t('equipment.attribute.textHint', {
      min: attribute.minLength ?? 4,
      max: attribute.maxLength ?? 10,
    });
  if (attribute.kind === 'number') {
    const kind = t(`equipment.attribute.numberKind.${attribute.numberKind ?? 'decimal'}`);
    if (attribute.min !== undefined && attribute.max !== undefined)
      return t('equipment.attribute.numberHint', { kind, min: attribute.min, max: attribute.max });
    return kind;
  }
  if (attribute.kind === 'attachment') return t('equipment.attribute.attachmentHint');
  return undefined;
}

/** Controlled by the Form.Item above (value/onChange injected). */
function ValueInput({
  attribute,
  testId,
  value,
  onChange,
}: {
  attribute: EquipmentAttribute;
  testId: string;
  value?: AttributeValue;
  onChange?: (value: AttributeValue | undefined) => void;
}) {
  switch (attribute.kind) {
    case 'text':
      return (
        <Input
          value={typeof value === 'string' ? value : ''}
          maxLength={attribute.maxLength ?? 10}
          onChange={(e) => onChange?.(e.target.value)}
          data-testid={testId}
        />
      );
    case 'number':
      return (
        <Input
          inputMode="decimal"
          value={value === undefined ? '' : String(value)}
          suffix={attribute.unit}
          onChange={(e) => onChange?.(e.target.value)}
          data-testid={testId}
        />
      );
    case 'attachment':
      return (
        <AttachmentInput
          value={typeof value === 'string' ? value : undefined}
          onChange={onChange}
          testId={testId}
        />
      );
    case 'choice':
      return (
        <ChoiceInput
          attribute={attribute}
          value={typeof value === 'object' ? value : undefined}
          onChange={onChange}
          testId={testId}
        />
      );
    default:
      return null;
  }
}

function ChoiceInput({
  attribute,
  value,
  onChange,
  testId,
}: {
  attribute: EquipmentAttribute;
  value?: ChoiceValue;
  onChange?: (value: ChoiceValue) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const picked = value?.options ?? [];
  const options = [
    ...(attribute.options ?? []).map((o) => ({ value: o, label: o })),
    ...(attribute.allowOther ? [{ value: OTHER_OPTION, label: t('equipment.attribute.other') }] : []),
  ];
  const change = (next: string[]) =>
    onChange?.({ options: next, ...(value?.other ? { other: value.other } : {}) });
  return (
    <Flex vertical gap="small" data-testid={testId}>
      {attribute.multiple ? (
        <Checkbox.Group options={options} value={picked} onChange={(next) => change(next.map(String))} />
      ) : (
        <Radio.Group options={options} value={picked[0]} onChange={(e) => change([String(e.target.value)])} />
      )}
      {picked.includes(OTHER_OPTION) && (
        <Input
          placeholder={t('equipment.attribute.otherPlaceholder')}
          value={value?.other ?? ''}
          maxLength={50}
          onChange={(e) => onChange?.({ options: picked, other: e.target.value })}
          data-testid={`${testId}-other`}
        />
      )}
    </Flex>
  );
}

function AttachmentInput({
  value,
  onChange,
  testId,
}: {
  value?: string;
  onChange?: (value: string | undefined) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  return (
    <Flex gap="small" align="center" wrap>
      <Upload
        accept=".pdf,.jpg,.jpeg,.png"
        maxCount={1}
        showUploadList={false}
        beforeUpload={(file) => {
          // The server sniffs the first bytes again; this spares an upload it would refuse.
          if (file.size >= ATTACHMENT_MAX_BYTES) {
            notify({ type: 'error', content: t('equipment.rule.attachmentTooLarge'), duration: 5 });
            return Upload.LIST_IGNORE;
          }
          return true;
        }}
        customRequest={({ file, onSuccess, onError }) => {
          uploadFile<UploadResult>(EQUIPMENT_PATHS.upload, file as Blob, (file as File).name, {
            purpose: 'attachment',
          })
            .then((result) => {
              onChange?.(result.url);
              onSuccess?.(result);
            })
            .catch((e: Error) => onError?.(e));
        }}
      >
        <Button icon={<UploadOutlined />} data-testid={testId}>
          {t('equipment.attribute.upload')}
        </Button>
      </Upload>
      {value && (
        <>
          <a href={value} target="_blank" rel="noreferrer" data-testid={`${testId}-file`}>
            {t('equipment.attribute.viewFile')}
          </a>
          <Button type="link" size="small" onClick={() => onChange?.(undefined)}>
            {t('equipment.common.remove')}
          </Button>
        </>
      )}
    </Flex>
  );
}
