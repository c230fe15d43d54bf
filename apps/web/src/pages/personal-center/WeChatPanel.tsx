import { WechatOutlined } from '@ant-design/icons';
import type { PersonalInfo } from '@coldchain/contract';
import { Alert, Button, Descriptions, Flex, Popconfirm, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../router/notify';
import { fetchWeChatUrl, refreshFollowStatus, unbindWeChat, unbindWeChatOfficial } from './api';
import { useRefreshPersonal } from './queries';

/** Where WeChat sends the user back with `code` and `state` after they authorise. */
export function weChatReturnAddress(): string {
  return `${window.location.origin}/user/personalCenter?panel=wechat`;
}

/** Sends the browser to WeChat's authorisation page (a separate function so tests can watch it). */
export const browser = { go: (url: string) => window.location.assign(url) };

/** WeChat binding and the official-account follow status (spec sections 3 and 7). */
export function WeChatPanel({ info }: { info: PersonalInfo }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const refresh = useRefreshPersonal();
  const [busy, setBusy] = useState<string | null>(null);

  const run = async (key: string, action: () => Promise<unknown>, success?: string) => {
    setBusy(key);
    try {
      await action();
      if (success) notify({ type: 'success', content: t(success), duration: 3 });
      await refresh();
    } catch {
      // Shown by the request wrapper.
    } finally {
      setBusy(null);
    }
  };

  const bind = () =>
    run('bind', async () => {
      const { url } = await fetchWeChatUrl(weChatReturnAddress());
      browser.go(url);
    });

  return (
    <div data-testid="wechat-panel">
      {/* Bound but not following (the server clears the state when WeChat refuses a message with
          43004, or when the user turned the messages off): say plainly that none arrive, and how
          to have them again. */}
      {info.wechatBound && !info.wechatFollowed && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('profile.wechat.notFollowingAlert')}
          data-testid="wechat-not-following"
        />
      )}
      <Descriptions
        column={1}
        items={[
          {
            key: 'binding',
            label: t('profile.wechat.binding'),
            children: (
              <Tag
                color={info.wechatBound ? 'green' : 'default'}
                data-testid="wechat-bound"
                icon={<WechatOutlined />}
              >
                {t(info.wechatBound ? 'profile.wechat.bound' : 'profile.wechat.notBound')}
              </Tag>
            ),
          },
          {
            key: 'follow',
            label: t('profile.wechat.follow'),
            children: (
              <span data-testid="wechat-followed">
                {t(info.wechatFollowed ? 'profile.wechat.followed' : 'profile.wechat.notFollowed')}
              </span>
            ),
          },
        ]}
      />
      <Flex gap={8} wrap style={{ marginTop: 16 }}>
        {!info.wechatBound && (
          <Button
            type="primary"
            loading={busy === 'bind'}
            onClick={() => void bind()}
            data-testid="wechat-bind"
          >
            {t('profile.wechat.bind')}
          </Button>
        )}
        {info.wechatBound && (
          <>
            <Button
              loading={busy === 'refresh'}
              onClick={() => void run('refresh', refreshFollowStatus)}
              data-testid="wechat-refresh"
            >
              {t('profile.wechat.refresh')}
            </Button>
            {info.wechatFollowed && (
              <Popconfirm
                title={t('profile.wechat.stopOfficialConfirm')}
                onConfirm={() => run('official', unbindWeChatOfficial, 'profile.wechat.officialOff')}
              >
                <Button loading={busy === 'official'} data-testid="wechat-stop-official">
                  {t('profile.wechat.stopOfficial')}
                </Button>
              </Popconfirm>
            )}
            <Popconfirm
              title={t('profile.wechat.unbindConfirm')}
              onConfirm={() => run('unbind', unbindWeChat, 'profile.wechat.unbound')}
            >
              <Button danger loading={busy === 'unbind'} data-testid="wechat-unbind">
                {t('profile.wechat.unbind')}
              </Button>
            </Popconfirm>
          </>
        )}
      </Flex>
    </div>
  );
}
