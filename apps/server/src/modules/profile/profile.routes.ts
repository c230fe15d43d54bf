import {
  BindWeChatRequest,
  CheckSignPasswordRequest,
  SetSignPasswordRequest,
  UpdateUserInfoRequest,
  WeChatUrlRequest,
} from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { translate } from '../../i18n/messages';
import { ok } from '../../lib/envelope';
import {
  checkPhoneBinding,
  getPersonalInfo,
  getUserAddress,
  setSignPassword,
  updateUserInfo,
  verifySignPassword,
} from './profile.service';
import {
  bindWeChat,
  refreshFollowStatus,
  unbindWeChat,
  unbindWeChatOfficial,
  weChatAuthorizeUrl,
} from './wechat.service';
import type { WechatAccount } from './wechat-account';

/** The personal centre (spec sections 2 and 7): every call acts on the caller only. */
export const profileRoutes: FastifyPluginAsyncZod<{ wechat: WechatAccount | null }> = async (
  app,
  { wechat },
) => {
  app.post('/api/user/personalInfo', async (request) =>
    ok(await getPersonalInfo(app.db, request.auth.userId, request.auth.companyId)),
  );

  app.post('/api/user/updateUserInfo', { schema: { body: UpdateUserInfoRequest } }, async (request) => {
    await updateUserInfo(app.db, request, request.body);
    return ok(
      await getPersonalInfo(app.db, request.auth.userId, request.auth.companyId),
      translate('PROFILE_SAVED', request.language),
    );
  });

  app.post('/api/user/setSignPassword', { schema: { body: SetSignPasswordRequest } }, async (request) => {
    await setSignPassword(app.db, request, request.body);
    return ok(null, translate('SIGN_PASSWORD_SAVED', request.language));
  });

  /** Lets the console check the signature password before it submits a patrol or an export. */
  app.post('/api/user/checkSignPassword', { schema: { body: CheckSignPasswordRequest } }, async (request) => {
    await verifySignPassword(app.db, request, request.body.password);
    return ok(true);
  });

  app.post('/api/user/getWeChatPublicAttentionUrl', { schema: { body: WeChatUrlRequest } }, async (request) =>
    ok(weChatAuthorizeUrl(wechat, request, request.body.redirectUri)),
  );

  app.post('/api/user/bindWeChat', { schema: { body: BindWeChatRequest } }, async (request) =>
    ok(await bindWeChat(app.db, wechat, request, request.body), translate('WECHAT_BOUND', request.language)),
  );

  app.post('/api/user/weChatFollowStatus', async (request) =>
    ok(await refreshFollowStatus(app.db, wechat, request)),
  );

  app.post('/api/user/unbindWeChat', async (request) => {
    await unbindWeChat(app.db, request);
    return ok(null, translate('WECHAT_UNBOUND', request.language));
  });

  app.post('/api/user/unbindWeChatOfficial', async (request) => {
    await unbindWeChatOfficial(app.db, request);
    return ok(null, translate('WECHAT_OFFICIAL_UNBOUND', request.language));
  });

  app.post('/api/user/checkPhoneBinding', async (request) =>
    ok(await checkPhoneBinding(app.db, request.auth.userId)),
  );

  app.post('/api/user/getUserAddress', async (request) =>
    ok(await getUserAddress(app.db, request.auth.userId, request.auth.companyId)),
  );
};
