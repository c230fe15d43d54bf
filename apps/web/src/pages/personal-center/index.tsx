import { Card, Col, Row, Spin, Tabs, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useNotify } from '../../router/notify';
import { AddressCodeCard } from './AddressCodeCard';
import { bindWeChat } from './api';
import { CompaniesPanel } from './CompaniesPanel';
import { FeedbackList } from './FeedbackList';
import { NoticeList } from './NoticeList';
import { PasswordPanel } from './PasswordPanel';
import { ProfileCard } from './ProfileCard';
import { usePersonalInfo, useRefreshPersonal } from './queries';
import { SignPasswordPanel } from './SignPasswordPanel';
import { WeChatPanel } from './WeChatPanel';

export const PANELS = ['notices', 'password', 'signPassword', 'wechat', 'companies', 'feedback'] as const;
type Panel = (typeof PANELS)[number];

/**
 * Completes a WeChat binding when WeChat sends the user back here with `code` and `state`,
 * then drops them from the address so a reload does not bind again.
 */
function useWeChatReturn() {
  const { t } = useTranslation();
  const notify = useNotify();
  const refresh = useRefreshPersonal();
  const [params, setParams] = useSearchParams();
  const handled = useRef<string | null>(null);
  const code = params.get('code');
  const state = params.get('state') ?? undefined;
  useEffect(() => {
    if (!code || handled.current === code) return;
    handled.current = code;
    setParams({ panel: 'wechat' }, { replace: true });
    bindWeChat(code, state)
      .then(() => {
        notify({ type: 'success', content: t('profile.wechat.boundOk'), duration: 3 });
        return refresh();
      })
      .catch(() => {
        // The server's message ("Bind failed, please retry") was shown by the request wrapper.
      });
  }, [code, state, setParams, notify, refresh, t]);
}

/**
 * Personal centre (spec section 2): profile on the left; notices, password, signature password,
 * WeChat, the user's companies (edit, leave) and the feedback they sent on the right. `?panel=password` (the user menu's "change
 * password") opens that panel.
 */
export default function PersonalCenterPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const info = usePersonalInfo();
  useWeChatReturn();
  const requested = params.get('panel');
  const panel: Panel = (PANELS as readonly string[]).includes(requested ?? '')
    ? (requested as Panel)
    : 'notices';

  return (
    <div>
      <Typography.Title level={4} data-testid="page-title">
        {t('profile.title')}
      </Typography.Title>
      {!info.data ? (
        <Spin />
      ) : (
        // From 1200 px the tabs take 17 of 24 columns, so all six fit a laptop's window without
        // antd's "more" menu (tabs out of sight, and a button in the tab list that axe reports);
        // checked at 1366 px by e2e/specs/every-page.spec.ts. Narrower, "more" keeps them reachable.
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={8} xl={7}>
            <ProfileCard key={info.dataUpdatedAt} info={info.data} />
            <AddressCodeCard />
          </Col>
          <Col xs={24} lg={16} xl={17}>
            <Card>
              <Tabs
                tabBarGutter={24}
                activeKey={panel}
                onChange={(key) => setParams({ panel: key }, { replace: true })}
                items={[
                  { key: 'notices', label: t('profile.tabs.notices'), children: <NoticeList /> },
                  { key: 'password', label: t('profile.tabs.password'), children: <PasswordPanel /> },
                  {
                    key: 'signPassword',
                    label: t('profile.tabs.signPassword'),
                    children: <SignPasswordPanel isSet={info.data.signPasswordSet} />,
                  },
                  {
                    key: 'wechat',
                    label: t('profile.tabs.wechat'),
                    children: <WeChatPanel info={info.data} />,
                  },
                  { key: 'companies', label: t('profile.tabs.companies'), children: <CompaniesPanel /> },
                  { key: 'feedback', label: t('profile.tabs.feedback'), children: <FeedbackList /> },
                ]}
              />
            </Card>
          </Col>
        </Row>
      )}
    </div>
  );
}
