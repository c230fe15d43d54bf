import { UserOutlined } from '@ant-design/icons';
import type { PersonalInfo, UpdateUserInfoRequest } from '@coldchain/contract';
import {
  Avatar,
  Button,
  Card,
  Descriptions,
  Flex,
  Form,
  Input,
  Select,
  Switch,
  Typography,
  Upload,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { roleName } from '../../components/labels';
import { useNotify } from '../../router/notify';
import { updateUserInfo, uploadAvatar } from './api';
import { useRefreshPersonal } from './queries';
import { emailRule, nameRule, phoneRule } from './rules';

/** Spec section 5: a profile picture is at most 1 MB. */
export const AVATAR_MAX_BYTES = 1_048_576;
const AVATAR_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

type ProfileForm = Required<Pick<UpdateUserInfoRequest, 'name' | 'gender' | 'phone' | 'altPhone' | 'email'>>;

/** Profile (name, gender, phones, e-mail, picture) and the console alarm sound. */
export function ProfileCard({ info }: { info: PersonalInfo }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const refresh = useRefreshPersonal();
  const [form] = Form.useForm<ProfileForm>();
  const [saving, setSaving] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [voiceBusy, setVoiceBusy] = useState(false);

  const save = async (values: ProfileForm) => {
    setSaving(true);
    try {
      await updateUserInfo({ ...values, name: values.name.trim() });
      notify({ type: 'success', content: t('profile.info.saved'), duration: 3 });
      await refresh();
    } catch {
      // Shown by the request wrapper.
    } finally {
      setSaving(false);
    }
  };

  const changeAvatar = async (file: File) => {
    if (!AVATAR_TYPES.includes(file.type)) {
      notify({ type: 'error', content: t('profile.info.avatarWrongType'), duration: 5 });
      return;
    }
    if (file.size > AVATAR_MAX_BYTES) {
      notify({ type: 'error', content: t('profile.info.avatarTooLarge'), duration: 5 });
      return;
    }
    setUploading(true);
    try {
      const { url } = await uploadAvatar(file);
      await updateUserInfo({ headImg: url });
      notify({ type: 'success', content: t('profile.info.avatarSaved'), duration: 3 });
      await refresh();
    } catch {
      // Shown by the request wrapper.
    } finally {
      setUploading(false);
    }
  };

  const toggleVoice = async (on: boolean) => {
    setVoiceBusy(true);
    try {
      await updateUserInfo({ pcAlarmVoice: on });
      notify({
        type: 'success',
        content: t(on ? 'profile.info.alarmVoiceOn' : 'profile.info.alarmVoiceOff'),
        duration: 3,
      });
      await refresh();
    } catch {
      // Shown by the request wrapper.
    } finally {
      setVoiceBusy(false);
    }
  };

  return (
    <Card title={t('profile.info.title')} data-testid="profile-card">
      <Flex vertical align="center" gap={8} style={{ marginBottom: 16 }}>
        <Avatar
          size={72}
          src={info.headImg || undefined}
          icon={<UserOutlined />}
          data-testid="profile-avatar"
        />
        <Upload
          accept={AVATAR_TYPES.join(',')}
          showUploadList={false}
          beforeUpload={(file) => {
            void changeAvatar(file);
            return false;
          }}
        >
          <Button size="small" loading={uploading} data-testid="profile-avatar-change">
            {t('profile.info.changeAvatar')}
          </Button>
        </Upload>
      </Flex>
      <Descriptions
        column={1}
        size="small"
        items={[
          { key: 'account', label: t('profile.info.account'), children: info.account },
          { key: 'company', label: t('profile.info.company'), children: info.company || '-' },
          { key: 'department', label: t('profile.info.department'), children: info.department || '-' },
          { key: 'role', label: t('profile.info.role'), children: roleName(t, info.role) || '-' },
        ]}
      />
      <Form<ProfileForm>
        form={form}
        layout="vertical"
        style={{ marginTop: 16 }}
        initialValues={{
          name: info.name,
          gender: info.gender,
          phone: info.phone,
          altPhone: info.altPhone,
          email: info.email,
        }}
        onFinish={(values) => void save(values)}
      >
        <Form.Item name="name" label={t('profile.info.name')} rules={[nameRule(t)]}>
          <Input data-testid="profile-name" maxLength={100} />
        </Form.Item>
        <Form.Item name="gender" label={t('profile.info.gender')}>
          <Select
            data-testid="profile-gender"
            options={[0, 1, 2].map((value) => ({ value, label: t(`profile.info.genders.${value}`) }))}
          />
        </Form.Item>
        <Form.Item name="phone" label={t('profile.info.phone')} rules={[phoneRule(t)]}>
          <Input data-testid="profile-phone" maxLength={20} />
        </Form.Item>
        <Form.Item name="altPhone" label={t('profile.info.altPhone')} rules={[phoneRule(t)]}>
          <Input data-testid="profile-alt-phone" maxLength={20} />
        </Form.Item>
        <Form.Item name="email" label={t('profile.info.email')} rules={[emailRule(t)]}>
          <Input data-testid="profile-email" maxLength={100} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="profile-save">
          {t('profile.info.save')}
        </Button>
      </Form>
      <Flex justify="space-between" align="center" style={{ marginTop: 24 }}>
        <div>
          <Typography.Text strong>{t('profile.info.alarmVoice')}</Typography.Text>
          <br />
          <Typography.Text type="secondary">{t('profile.info.alarmVoiceHint')}</Typography.Text>
        </div>
        <Switch
          data-testid="profile-alarm-voice"
          checked={info.pcAlarmVoice}
          loading={voiceBusy}
          onChange={(on) => void toggleVoice(on)}
          aria-label={t('profile.info.alarmVoice')}
        />
      </Flex>
    </Card>
  );
}
