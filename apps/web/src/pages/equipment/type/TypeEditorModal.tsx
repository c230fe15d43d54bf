import { DeleteOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import type { UploadResult } from '@coldchain/contract';
import {
  Button,
  Card,
  Checkbox,
  Flex,
  Form,
  type FormListFieldData,
  Image,
  Input,
  InputNumber,
  Modal,
  Radio,
  Select,
  Upload,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { uploadFile } from '../../../api/request';
import { useNotify } from '../../../router/notify';
import { EQUIPMENT_PATHS, useSaveType } from '../api';
import {
  ATTACHMENT_MAX_BYTES,
  CODE_PATTERN,
  checkAttributeDefinition,
  checkAttributeList,
  MAX_ATTRIBUTES,
  TEXT_LENGTH_MAX,
  TEXT_LENGTH_MIN,
  TYPE_NAME_MAX,
  UNIT_MAX,
} from '../attribute-rules';
import { ATTRIBUTE_KINDS, type EquipmentAttribute, type EquipmentType } from '../types';

interface Values {
  name: string;
  code: string;
  attributes: EquipmentAttribute[];
}

const NEW_ATTRIBUTE: EquipmentAttribute = {
  name: '',
  kind: 'text',
  minLength: TEXT_LENGTH_MIN,
  maxLength: TEXT_LENGTH_MAX,
};

/** Only the fields of the attribute's kind travel, so a kind changed in the form leaves nothing behind. */
function cleanAttribute(a: EquipmentAttribute): EquipmentAttribute {
  const base = { ...(a.id ? { id: a.id } : {}), name: a.name.trim(), kind: a.kind, required: !!a.required };
  switch (a.kind) {
    case 'text':
      return {
        ...base,
        minLength: a.minLength ?? TEXT_LENGTH_MIN,
        maxLength: a.maxLength ?? TEXT_LENGTH_MAX,
      };
    case 'number':
      return {
        ...base,
        numberKind: a.numberKind ?? 'decimal',
        ...(typeof a.min === 'number' ? { min: a.min } : {}),
        ...(typeof a.max === 'number' ? { max: a.max } : {}),
        ...(a.unit?.trim() ? { unit: a.unit.trim() } : {}),
      };
    case 'choice':
      return {
        ...base,
        options: (a.options ?? []).map((o) => o.trim()),
        multiple: !!a.multiple,
        allowOther: !!a.allowOther,
      };
    default:
      return base;
  }
}

/**
 * Adds or edits an equipment type. The code is fixed once equipment uses the type (its serials and
 * printed labels carry it); attribute changes never rewrite stored values: the server counts the
 * equipment whose values no longer fit, and the editor says so after saving.
 */
export function TypeEditorModal({ type, onClose }: { type: EquipmentType | null; onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const [form] = Form.useForm<Values>();
  const save = useSaveType();
  const [introImage, setIntroImage] = useState<string>(type?.introImage ?? '');
  const codeLocked = (type?.equipmentCount ?? 0) > 0;

  const submit = async (values: Values) => {
    const attributes = (values.attributes ?? []).map(cleanAttribute);
    const found = checkAttributeList(attributes);
    if (found) {
      notify({ type: 'error', content: t(`equipment.rule.${found.key}`, found.params), duration: 5 });
      return;
    }
    try {
      const saved = await save.mutateAsync({
        ...(type ? { id: type.id } : {}),
        name: values.name.trim(),
        code: values.code.trim(),
        introImage,
        attributes,
      });
      const affected = saved.affectedEquipment ?? 0;
      if (affected > 0)
        notify({ type: 'warning', content: t('equipment.type.affected', { count: affected }), duration: 8 });
      else notify({ type: 'success', content: t('equipment.type.saved'), duration: 3 });
      onClose();
    } catch {
      // The request wrapper showed the server's message (a code taken...).
    }
  };

  return (
    <Modal
      open
      title={t(type ? 'equipment.type.editTitle' : 'equipment.type.addTitle')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('equipment.common.save')}
      cancelText={t('equipment.common.cancel')}
      okButtonProps={{ loading: save.isPending, ...({ 'data-testid': 'type-save' } as object) }}
      destroyOnHidden
      mask={{ closable: false }}
      width={720}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{ name: type?.name ?? '', code: type?.code ?? '', attributes: type?.attributes ?? [] }}
      >
        <Flex gap="middle" wrap>
          <Form.Item
            name="name"
            label={t('equipment.type.name')}
            style={{ flex: '1 1 200px' }}
            rules={[
              { required: true, whitespace: true, message: t('equipment.rule.typeNameRequired') },
              { max: TYPE_NAME_MAX, message: t('equipment.rule.typeNameTooLong', { max: TYPE_NAME_MAX }) },
            ]}
          >
            <Input maxLength={TYPE_NAME_MAX} data-testid="type-name" />
          </Form.Item>
          <Form.Item
            name="code"
            label={t('equipment.type.code')}
            style={{ flex: '1 1 160px' }}
            extra={codeLocked ? t('equipment.type.codeLocked') : t('equipment.type.codeHint')}
            rules={[
              { required: true, message: t('equipment.rule.codeRequired') },
              { pattern: CODE_PATTERN, message: t('equipment.rule.codeDigits') },
            ]}
          >
            <Input maxLength={10} inputMode="numeric" disabled={codeLocked} data-testid="type-code" />
          </Form.Item>
        </Flex>
        <Form.Item label={t('equipment.type.introImage')} extra={t('equipment.type.introImageHint')}>
          <IntroImageInput value={introImage} onChange={setIntroImage} />
        </Form.Item>
        <Form.List
          name="attributes"
          rules={[
            {
              validator: async (_, list?: EquipmentAttribute[]) => {
                if ((list ?? []).length > MAX_ATTRIBUTES)
                  throw new Error(t('equipment.rule.tooManyAttributes', { max: MAX_ATTRIBUTES }));
              },
            },
          ]}
        >
          {(fields, { add, remove }, { errors }) => (
            <Flex vertical gap="small">
              {fields.map((field, index) => (
                <AttributeEditor
                  key={field.key}
                  field={field}
                  index={index}
                  onRemove={() => remove(field.name)}
                />
              ))}
              <Form.ErrorList errors={errors} />
              <Button
                type="dashed"
                icon={<PlusOutlined />}
                disabled={fields.length >= MAX_ATTRIBUTES}
                onClick={() => add({ ...NEW_ATTRIBUTE })}
                data-testid="type-attribute-add"
              >
                {t('equipment.type.addAttribute', { count: fields.length, max: MAX_ATTRIBUTES })}
              </Button>
            </Flex>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}

function AttributeEditor({
  field,
  index,
  onRemove,
}: {
  field: FormListFieldData;
  index: number;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const form = Form.useFormInstance<Values>();
  const kind = Form.useWatch(['attributes', field.name, 'kind'], form);
  const testId = `type-attribute-${index}`;
  const path = (key: keyof EquipmentAttribute) => [field.name, key];
  const deps = ['kind', 'minLength', 'maxLength', 'numberKind', 'min', 'max', 'unit', 'options'].map((k) => [
    'attributes',
    field.name,
    k,
  ]);
  return (
    <Card
      size="small"
      data-testid={testId}
      title={t('equipment.type.attributeTitle', { index: index + 1 })}
      extra={
        <Button
          type="text"
          danger
          icon={<DeleteOutlined />}
          onClick={onRemove}
          data-testid={`${testId}-remove`}
        >
          {t('equipment.common.remove')}
        </Button>
      }
    >
      {/* The server keeps an attribute (and the values stored for it) by the id sent back. */}
      <Form.Item name={path('id')} hidden>
        <Input />
      </Form.Item>
      <Flex gap="small" wrap>
        <Form.Item
          name={path('name')}
          label={t('equipment.attribute.name')}
          style={{ flex: '1 1 180px' }}
          dependencies={deps}
          rules={[
            {
              // The whole definition is checked here, so its message sits under the attribute it is about.
              validator: async () => {
                const attribute = form.getFieldValue(['attributes', field.name]) as EquipmentAttribute;
                const found = checkAttributeDefinition(
                  cleanAttribute({ ...attribute, name: attribute.name ?? '' }),
                );
                if (found) throw new Error(t(`equipment.rule.${found.key}`, found.params));
              },
            },
          ]}
        >
          <Input maxLength={50} data-testid={`${testId}-name`} />
        </Form.Item>
        <Form.Item
          name={path('kind')}
          label={t('equipment.attribute.kindLabel')}
          style={{ flex: '1 1 140px' }}
        >
          <Select
            data-testid={`${testId}-kind`}
            options={ATTRIBUTE_KINDS.map((k) => ({ value: k, label: t(`equipment.attribute.kind.${k}`) }))}
          />
        </Form.Item>
        <Form.Item name={path('required')} valuePropName="checked" label=" ">
          <Checkbox data-testid={`${testId}-required`}>{t('equipment.attribute.required')}</Checkbox>
        </Form.Item>
      </Flex>
      {kind === 'text' && (
        <Flex gap="small" wrap>
          <Form.Item name={path('minLength')} label={t('equipment.attribute.minLength')}>
            <InputNumber
              min={TEXT_LENGTH_MIN}
              max={TEXT_LENGTH_MAX}
              precision={0}
              data-testid={`${testId}-min-length`}
            />
          </Form.Item>
          <Form.Item name={path('maxLength')} label={t('equipment.attribute.maxLength')}>
            <InputNumber
              min={TEXT_LENGTH_MIN}
              max={TEXT_LENGTH_MAX}
              precision={0}
              data-testid={`${testId}-max-length`}
            />
          </Form.Item>
        </Flex>
      )}
      {kind === 'number' && (
        <Flex gap="small" wrap align="end">
          <Form.Item
            name={path('numberKind')}
            label={t('equipment.attribute.numberKindLabel')}
            initialValue="decimal"
          >
            <Radio.Group data-testid={`${testId}-number-kind`}>
              <Radio value="integer">{t('equipment.attribute.numberKind.integer')}</Radio>
              <Radio value="decimal">{t('equipment.attribute.numberKind.decimal')}</Radio>
            </Radio.Group>
          </Form.Item>
          <Form.Item name={path('min')} label={t('equipment.attribute.min')}>
            <InputNumber data-testid={`${testId}-min`} />
          </Form.Item>
          <Form.Item name={path('max')} label={t('equipment.attribute.max')}>
            <InputNumber data-testid={`${testId}-max`} />
          </Form.Item>
          <Form.Item name={path('unit')} label={t('equipment.attribute.unit')}>
            <Input maxLength={UNIT_MAX} style={{ width: 100 }} data-testid={`${testId}-unit`} />
          </Form.Item>
        </Flex>
      )}
      {kind === 'choice' && (
        <>
          <Form.Item
            name={path('options')}
            label={t('equipment.attribute.options')}
            extra={t('equipment.attribute.optionsHint')}
          >
            <Select
              mode="tags"
              open={false}
              tokenSeparators={[',', '，']}
              data-testid={`${testId}-options`}
            />
          </Form.Item>
          <Flex gap="middle" wrap>
            <Form.Item name={path('multiple')} valuePropName="checked" noStyle>
              <Checkbox data-testid={`${testId}-multiple`}>{t('equipment.attribute.multiple')}</Checkbox>
            </Form.Item>
            <Form.Item name={path('allowOther')} valuePropName="checked" noStyle>
              <Checkbox data-testid={`${testId}-allow-other`}>{t('equipment.attribute.allowOther')}</Checkbox>
            </Form.Item>
          </Flex>
        </>
      )}
      {kind === 'attachment' && (
        <Flex>
          <span>{t('equipment.attribute.attachmentHint')}</span>
        </Flex>
      )}
    </Card>
  );
}

/** The type's intro image: a JPG or PNG under 1 MB (purpose `attachment`, checked again by the server). */
function IntroImageInput({ value, onChange }: { value: string; onChange: (url: string) => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  return (
    <Flex gap="small" align="center" wrap>
      {value && <Image src={value} width={64} height={64} data-testid="type-intro-image" />}
      <Upload
        accept=".jpg,.jpeg,.png"
        maxCount={1}
        showUploadList={false}
        beforeUpload={(file) => {
          const isImage =
            /\.(jpe?g|png)$/i.test(file.name) || ['image/jpeg', 'image/png'].includes(file.type);
          if (!isImage || file.size >= ATTACHMENT_MAX_BYTES) {
            const key = isImage ? 'equipment.rule.imageTooLarge' : 'equipment.rule.imageType';
            notify({ type: 'error', content: t(key), duration: 5 });
            return Upload.LIST_IGNORE;
          }
          return true;
        }}
        customRequest={({ file, onSuccess, onError }) => {
          uploadFile<UploadResult>(EQUIPMENT_PATHS.upload, file as Blob, (file as File).name, {
            purpose: 'attachment',
          })
            .then((result) => {
              onChange(result.url);
              onSuccess?.(result);
            })
            .catch((e: Error) => onError?.(e));
        }}
      >
        <Button icon={<UploadOutlined />} data-testid="type-intro-upload">
          {t('equipment.type.uploadImage')}
        </Button>
      </Upload>
      {value && (
        <Button type="link" onClick={() => onChange('')}>
          {t('equipment.common.remove')}
        </Button>
      )}
    </Flex>
  );
}
