import type { DepartmentNode, InviteLink } from '@coldchain/contract';
import { App, Button, Flex, Input, Modal, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../devices/format';
import { useCreateInvite } from '../queries';

export function inviteUrl(id: string): string {
  return `${window.location.origin}/invite?id=${encodeURIComponent(id)}`;
}

/**
 * Creates an invitation link to a department (spec section 9: no use limit, expires after 24
 * hours) and offers to copy it; a refused clipboard shows 'Copy failed' (spec section 8).
 */
export function InviteModal({
  department,
  onClose,
}: {
  department: DepartmentNode | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const create = useCreateInvite();
  const [link, setLink] = useState<InviteLink | null>(null);
  const departmentId = department?.id;
  const { mutateAsync } = create;

  useEffect(() => {
    setLink(null);
    if (!departmentId) return;
    mutateAsync({ departmentId }).then(setLink, () => onClose());
  }, [departmentId, mutateAsync, onClose]);

  const copy = async () => {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(inviteUrl(link.id));
      void message.success(t('org.invite.copied'));
    } catch {
      void message.error(t('org.invite.copyFailed'));
    }
  };

  return (
    <Modal
      open={!!department}
      title={t('org.invite.title', { name: department?.name ?? '' })}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t('org.close')}</Button>}
      destroyOnHidden
    >
      {link ? (
        <Flex vertical gap="small">
          <Flex gap="small">
            <Input readOnly value={inviteUrl(link.id)} data-testid="invite-link" />
            <Button type="primary" onClick={copy} data-testid="invite-copy">
              {t('org.invite.copy')}
            </Button>
          </Flex>
          <Typography.Text type="secondary" data-testid="invite-expiry">
            {t('org.invite.expires', { time: formatTime(link.expireTime) })}
          </Typography.Text>
        </Flex>
      ) : (
        <Typography.Text>{t('org.invite.creating')}</Typography.Text>
      )}
    </Modal>
  );
}
