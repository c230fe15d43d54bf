import { Button, Descriptions, Flex, Result, Spin } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useAccessToken } from '../../../session/queries';
import { formatTime } from '../../devices/format';
import { PublicFrame } from '../components/PublicFrame';
import { useInviteInfo, useInviteJoin } from '../queries';

/**
 * Invitation landing page `/invite?id=` (public, no layout). It names the company, department
 * and inviter; an expired or unknown link shows the broken-link state. A visitor logs in or
 * registers first and comes back here (the login page's `redirect`); a logged-in user joins.
 */
export default function InvitePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('id')?.trim() ?? '';
  const token = useAccessToken();
  const info = useInviteInfo(id);
  const join = useInviteJoin();
  const [joined, setJoined] = useState(false);
  const back = encodeURIComponent(`/invite?id=${encodeURIComponent(id)}`);

  const accept = async () => {
    try {
      const result = await join.mutateAsync({ id });
      // `true` is the request wrapper saying the server refused with a message it showed
      // already (spec section 8); the page then stays as it was.
      if (result !== true) setJoined(true);
    } catch {
      // Login expired: the wrapper has sent the user to the login page.
    }
  };

  if (id && info.isPending) {
    return (
      <PublicFrame title={t('org.invite.pageTitle')}>
        <Spin />
      </PublicFrame>
    );
  }
  if (!id || !info.data?.valid) {
    return (
      <PublicFrame title={t('org.invite.pageTitle')}>
        <Result
          status="warning"
          title={<span data-testid="invite-broken">{t('org.invite.broken')}</span>}
          subTitle={t('org.invite.brokenDetail')}
          extra={
            <Button onClick={() => navigate(token ? '/home' : '/login')}>
              {token ? t('common.backHome') : t('org.invite.login')}
            </Button>
          }
        />
      </PublicFrame>
    );
  }
  if (joined) {
    return (
      <PublicFrame title={t('org.invite.pageTitle')}>
        <Result
          status="success"
          title={<span data-testid="invite-joined">{t('org.invite.joined')}</span>}
          extra={
            <Link to="/home" data-testid="invite-home">
              {t('common.backHome')}
            </Link>
          }
        />
      </PublicFrame>
    );
  }

  const invite = info.data;
  return (
    <PublicFrame title={t('org.invite.pageTitle')}>
      <Descriptions
        column={1}
        bordered
        size="small"
        data-testid="invite-info"
        items={[
          { key: 'company', label: t('org.field.company'), children: invite.companyName },
          { key: 'department', label: t('org.field.department'), children: invite.departmentName },
          { key: 'inviter', label: t('org.invite.inviter'), children: invite.inviterName },
          { key: 'expires', label: t('org.invite.expireTime'), children: formatTime(invite.expireTime) },
        ]}
      />
      <Flex gap="small" justify="center" style={{ marginTop: 24 }}>
        {token ? (
          <Button type="primary" loading={join.isPending} onClick={accept} data-testid="invite-join">
            {t('org.invite.join')}
          </Button>
        ) : (
          <>
            <Button
              type="primary"
              onClick={() => navigate(`/login?redirect=${back}`)}
              data-testid="invite-login"
            >
              {t('org.invite.login')}
            </Button>
            <Button onClick={() => navigate(`/register?redirect=${back}`)} data-testid="invite-register">
              {t('org.invite.register')}
            </Button>
          </>
        )}
      </Flex>
    </PublicFrame>
  );
}
