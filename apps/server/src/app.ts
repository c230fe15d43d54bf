import rateLimit from '@fastify/rate-limit';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Database, Db } from './db/client';
import { startChangeRelay } from './db/pg-change-relay';
import { translate } from './i18n/messages';
import { AnswerCache } from './lib/answer-cache';
import type { Config } from './lib/config';
import { secretBoxFor } from './lib/secret-box';
import { AlarmEvaluator } from './modules/alarms/alarm-evaluator';
import { AlarmFollowUps, type Clock } from './modules/alarms/alarm-follow-ups';
import { alarmRoutes } from './modules/alarms/alarms.routes';
import { auditRoutes } from './modules/audit/audit.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { billingRoutes } from './modules/billing/billing.routes';
import { creditRoutes } from './modules/billing/credits.routes';
import { invoiceRoutes } from './modules/billing/invoices.routes';
import { operatorBillingRoutes } from './modules/billing/invoices-operator.routes';
import { loadPaymentConfig } from './modules/billing/payment-adapter';
import { paymentRoutes } from './modules/billing/payments.routes';
import { webhookRoutes } from './modules/billing/webhook.routes';
import { calibrationRoutes } from './modules/calibration/calibration.routes';
import { cameraMediaSources, registerCameras } from './modules/camera/camera-module';
import { companyRoutes } from './modules/companies/companies.routes';
import { companyAdminRoutes } from './modules/companies/company-admin.routes';
import { dataCenterRoutes } from './modules/data-center/data-center.routes';
import { datavRoutes } from './modules/datav/datav.routes';
import { createDeliveryWorker } from './modules/delivery/delivery';
import { deliveryRoutes } from './modules/delivery/delivery.routes';
import type { DeliveryWorker } from './modules/delivery/delivery-worker';
import { deviceRoutes } from './modules/devices/devices.routes';
import { equipmentRoutes } from './modules/equipment/equipment.routes';
import { exportProgressRoutes } from './modules/export-progress/export-progress.routes';
import { feedbackRoutes } from './modules/feedback/feedback.routes';
import { fileRoutes } from './modules/files/files.routes';
import { openFileStore } from './modules/files/store/open-store';
import type { FileStore } from './modules/files/store/store';
import { groupRoutes } from './modules/groups/groups.routes';
import { ConnectionAdmission } from './modules/ingest/connection-admission';
import { DeviceDirectory } from './modules/ingest/device-directory';
import { httpIngestRoutes } from './modules/ingest/http-ingest.routes';
import { IngestService } from './modules/ingest/ingest.service';
import { JobQueue } from './modules/jobs/job-queue';
import { liveRoutes } from './modules/live/live.routes';
import { LiveHub } from './modules/live/live-hub';
import { startLiveRelay } from './modules/live/live-relay';
import { logisticsDeliveryRoutes } from './modules/logistics/deliveries.routes';
import { logisticsRoutes } from './modules/logistics/logistics.routes';
import { noticeRoutes } from './modules/notices/notices.routes';
import { createMailer } from './modules/notify/mailer';
import { openRoutes } from './modules/open-api/open.routes';
import { openApiKeyRoutes } from './modules/open-api/open-api.routes';
import { operationReportRoutes } from './modules/operation-reports/operation-reports.routes';
import { registerOperationReportJobs } from './modules/operation-reports/operation-run';
import { operatorRoutes } from './modules/operator/operator.routes';
import { usersWhoMaySeeDevice } from './modules/org/access';
import { departmentRoutes } from './modules/org/departments.routes';
import { joiningRoutes } from './modules/org/joining.routes';
import { personnelRoutes } from './modules/org/personnel.routes';
import { roleRoutes } from './modules/org/roles.routes';
import { parameterRoutes } from './modules/parameters/parameters.routes';
import { ParameterService } from './modules/parameters/parameters.service';
import { platformDockingRoutes } from './modules/platform-docking/platform-docking.routes';
import { profileRoutes } from './modules/profile/profile.routes';
import { wechatAccount } from './modules/profile/wechat-account';
import { pushDockingRoutes } from './modules/push-docking/push-docking.routes';
import { PushSender } from './modules/push-docking/push-sender';
import { PushWorker } from './modules/push-docking/push-worker';
import { registrationRoutes } from './modules/registration/registration.routes';
import { registerReportJobs } from './modules/report-tasks/report-run';
import { reportTaskRoutes } from './modules/report-tasks/report-tasks.routes';
import { reportRoutes } from './modules/reports/reports.routes';
import { servicePeriodRoutes } from './modules/service-periods/service-periods.routes';
import { signatureRoutes } from './modules/signature/signature.routes';
import { statisticsRoutes } from './modules/statistics/statistics.routes';
import { metricsRoutes } from './modules/system/metrics.routes';
import { databaseReadiness, type Readiness } from './modules/system/readiness.routes';
import { APP_VERSION, systemRoutes } from './modules/system/system.routes';
import { userRoutes } from './modules/users/users.routes';
import { recordRoutePermissions, registerAuth } from './plugins/auth';
import { registerConsole } from './plugins/console';
import { registerErrorHandling } from './plugins/errors';
import { AccessLog, loggerOptions } from './plugins/logger';
import { registerOpenApiDocument } from './plugins/openapi-document';
import { registerSecurityHeaders } from './plugins/security-headers';
import { registerStorableText } from './plugins/storable-text';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    database: Database;
    /** The page-load reads' answers, reused while the database has not changed (lib/answer-cache.ts). */
    answers: AnswerCache;
    hub: LiveHub;
    deviceDirectory: DeviceDirectory;
    ingest: IngestService;
    /** Paces the embedded broker's CONNACKs to what ingest absorbs (ingest/connection-admission.ts). */
    admission: ConnectionAdmission;
    alarms: AlarmEvaluator;
    /** Reminders and escalation of open alarms on the server's clock; server.ts starts it (tests call `runDue`). */
    alarmFollowUps: AlarmFollowUps;
    /** Parameter read/push down; brokers attach to `parameters.link` (modules/parameters). */
    parameters: ParameterService;
    /** Alarm message delivery; server.ts starts it (tests start it, or call `deliverDue`). */
    delivery: DeliveryWorker;
    /** The database job queue (modules/jobs); run-server.ts starts it (tests call `runDue`). */
    jobs: JobQueue;
    /** Push docking's delivery worker (modules/push-docking); run-server.ts starts it (tests call `runDue`). */
    push: PushWorker;
    /** Uploads and generated files: UPLOAD_DIR, or the bucket of S3_URL (modules/files/store). */
    files: FileStore;
    /** `/readyz`: database, migrations and MQTT broker (modules/system/readiness.ts); run-server.ts attaches the broker. */
    readiness: Readiness;
  }
}

export interface BuildAppOptions {
  config: Config;
  database: Database;
  /** Overrides the logger (tests capture it, or pass false). */
  logger?: Parameters<typeof Fastify>[0] extends infer O
    ? O extends { logger?: infer L }
      ? L
      : never
    : never;
  /** The server's clock for the alarm engine and its reminders (tests move one by hand). */
  clock?: Clock;
}

/**
 * Builds the HTTP application: external plugins, then our plugins, then the routes of every
 * domain. It does not listen; server.ts does, and tests use `app.inject`.
 */
export async function buildApp({
  config,
  database,
  logger,
  clock,
}: BuildAppOptions): Promise<FastifyInstance> {
  const accessLog = new AccessLog();
  const app = Fastify({
    logger: logger ?? loggerOptions(config.logLevel),
    // A line per request at debug level and a summary at info (plugins/logger.ts).
    logController: accessLog,
    bodyLimit: config.bodyLimitBytes,
    // X-Forwarded-For is believed only from TRUST_PROXY's proxies: request.ip keys the login
    // and code rate limits, the abnormal-login check and the logs (lib/trust-proxy.ts).
    trustProxy: config.trustProxy,
    return503OnClosing: true,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('db', database.db);
  app.decorate('database', database);
  app.decorate('hub', new LiveHub());
  // On PostgreSQL, live pushes reach the sockets of every instance through LISTEN/NOTIFY.
  const liveRelay = await startLiveRelay(
    database,
    app.hub,
    (companyId, deviceId) => usersWhoMaySeeDevice(database.db, companyId, deviceId),
    app.log,
  );
  // On PostgreSQL, other instances' changes reach the count that answer reuse depends on.
  const changeRelay = await startChangeRelay(database, app.log);
  app.decorate('answers', new AnswerCache(database.changes));
  app.decorate('deviceDirectory', new DeviceDirectory(database.db));
  app.decorate('ingest', new IngestService(database.db, config.deviceLimits));
  app.decorate('admission', new ConnectionAdmission(app.ingest));
  app.addHook('onClose', async () => app.admission.close());
  app.decorate('parameters', new ParameterService(database.db, config.parameterTimeoutMs, app.log));
  // The alarm engine listens to ingest from the start, so every app (tests included) alarms;
  // server.ts also feeds it the offline sweep's transitions.
  app.decorate('alarms', new AlarmEvaluator(database.db, app.hub, app.log, clock));
  app.decorate('alarmFollowUps', new AlarmFollowUps(database.db, app.hub, app.log, clock));
  const detachAlarms = app.alarms.attach(app.ingest);

  // API.md: a body that is not JSON is a transport fault (400), not a validation message.
  app.removeContentTypeParser('text/plain');
  // Calls without a body are common (`/api/logout`, `/api/user/userInfo`): an empty JSON body is {}.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString();
    if (text.trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(
        Object.assign(new Error('malformed JSON'), {
          statusCode: 400,
          code: 'FST_ERR_CTP_INVALID_JSON_BODY',
        }),
        undefined,
      );
    }
  });

  registerErrorHandling(app);
  accessLog.start(app);
  registerSecurityHeaders(app, {
    mapTileUrl: config.mapTileUrl,
    dashboardFrameAncestors: config.dashboardFrameAncestors,
    mediaSources: cameraMediaSources(process.env),
  });
  registerAuth(app, database.db, config.sessionIdleMs);
  registerStorableText(app);
  // Before any route: the permission matrix test reads what every call requires from here.
  recordRoutePermissions(app);
  // Before any route too: the OpenAPI document collects the routes as they are added.
  await registerOpenApiDocument(app, APP_VERSION);

  await app.register(rateLimit, {
    global: false,
    // Injected and socket requests may have no address; they share one bucket instead of crashing.
    keyGenerator: (request) => request.ip ?? 'unknown',
    errorResponseBuilder: (request, context) => ({
      statusCode: 429,
      msgCode: 429,
      message: translate('RATE_LIMITED', request.language ?? 'en', {
        seconds: Math.ceil(context.ttl / 1000),
      }),
    }),
  });
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });

  app.decorate('readiness', databaseReadiness(database.db, config));
  await app.register(systemRoutes, { config });
  await app.register(datavRoutes);
  const mailer = createMailer(config.smtpUrl, config.mailFrom);
  await app.register(authRoutes, {
    sessionIdleMs: config.sessionIdleMs,
    loginRateLimitPerMinute: config.loginRateLimitPerMinute,
    codeRateLimitPerMinute: config.codeRateLimitPerMinute,
    mailer,
  });
  app.decorate('delivery', createDeliveryWorker(database.db, config, mailer, app.log));
  // Wake delivery as soon as the engine has committed an alarm's outbox rows; batches that raise
  // nothing cost delivery no query.
  const stopWakeOnAlarms = app.alarms.onRaised(() => app.delivery.wake());
  const stopWakeOnFollowUps = app.alarmFollowUps.onNotified(() => app.delivery.wake());
  app.addHook('onClose', async () => {
    stopWakeOnAlarms();
    stopWakeOnFollowUps();
    await app.alarmFollowUps.stop();
    await app.delivery.stop();
    mailer?.close();
  });
  await app.register(registrationRoutes, { mailer, codeRateLimitPerMinute: config.codeRateLimitPerMinute });
  await app.register(userRoutes);
  await app.register(companyRoutes, { starterCredits: config.starterCredits });
  await app.register(companyAdminRoutes);
  await app.register(departmentRoutes);
  await app.register(joiningRoutes);
  await app.register(feedbackRoutes);
  await app.register(noticeRoutes);
  await app.register(profileRoutes, {
    wechat: config.wechatAccount ? wechatAccount(config.wechatAccount) : null,
  });
  // Every instance given the same S3_URL serves the same files (docs/file-storage.md).
  app.decorate('files', await openFileStore(config));
  app.addHook('onClose', async () => app.files.close());
  await app.register(fileRoutes, { files: app.files });
  await app.register(auditRoutes);
  await app.register(signatureRoutes);
  await app.register(deviceRoutes, { mktActivationEnergyKj: config.mktActivationEnergyKj });
  await app.register(calibrationRoutes, { files: app.files });
  await app.register(groupRoutes);
  await app.register(equipmentRoutes, {
    files: app.files,
    mktActivationEnergyKj: config.mktActivationEnergyKj,
  });
  await app.register(billingRoutes, { prices: config.prices });
  await app.register(creditRoutes);
  // Online payment is read from PAYMENT_* at start (payment-adapter.ts); unset = bank transfer only.
  const payment = loadPaymentConfig(process.env);
  await app.register(paymentRoutes, { payment, files: app.files });
  await app.register(webhookRoutes, { payment });
  await app.register(invoiceRoutes, { files: app.files });
  await app.register(operatorBillingRoutes, { files: app.files, mailer });
  await app.register(servicePeriodRoutes);
  await app.register(parameterRoutes);
  await app.register(httpIngestRoutes);
  await app.register(alarmRoutes);
  await app.register(deliveryRoutes, { config });
  await app.register(roleRoutes);
  await app.register(personnelRoutes);
  await app.register(reportRoutes, {
    files: app.files,
    mktActivationEnergyKj: config.mktActivationEnergyKj,
  });
  await app.register(liveRoutes, { hub: app.hub, sessionIdleMs: config.sessionIdleMs });
  const secrets = secretBoxFor(config);
  await app.register(openApiKeyRoutes, { box: secrets });
  await app.register(openRoutes, {
    box: secrets,
    ratePerMinute: config.openApiRatePerMinute,
    mktActivationEnergyKj: config.mktActivationEnergyKj,
  });
  app.decorate(
    'push',
    new PushWorker(
      database.db,
      secrets,
      PushSender.fromAllowList(config.push.allowHosts, config.push.timeoutMs),
      config.push,
      app.log,
      clock,
    ),
  );
  app.push.yieldTo(() => app.ingest.busyShare());
  app.addHook('onClose', async () => {
    await app.push.stop();
  });
  await app.register(pushDockingRoutes, { box: secrets, worker: app.push });
  await app.register(platformDockingRoutes, { box: secrets, worker: app.push });
  app.decorate('jobs', new JobQueue(database.db, app.log, { clock }));
  registerReportJobs({
    db: database.db,
    queue: app.jobs,
    mailer,
    log: app.log,
    files: app.files,
    attachMaxBytes: config.reportAttachMaxBytes,
    baseUrl: config.publicUrl ?? `http://localhost:${config.port}`,
  });
  app.addHook('onClose', () => app.jobs.stop());
  await app.register(reportTaskRoutes, { queue: app.jobs, files: app.files });
  registerOperationReportJobs({
    db: database.db,
    queue: app.jobs,
    mailer,
    log: app.log,
    files: app.files,
    attachMaxBytes: config.reportAttachMaxBytes,
    baseUrl: config.publicUrl ?? `http://localhost:${config.port}`,
    activationEnergyKj: config.mktActivationEnergyKj,
  });
  await app.register(operationReportRoutes, { queue: app.jobs, files: app.files });
  await app.register(statisticsRoutes);
  await app.register(dataCenterRoutes, { files: app.files });
  await app.register(exportProgressRoutes);
  await app.register(logisticsRoutes);
  await app.register(logisticsDeliveryRoutes, {
    files: app.files,
    mailer,
    baseUrl: config.publicUrl ?? `http://localhost:${config.port}`,
  });
  // Cameras: platform accounts, live view and a picture of every alarm (modules/camera).
  await registerCameras(app, {
    box: secrets,
    files: app.files,
    baseUrl: config.publicUrl ?? `http://localhost:${config.port}`,
  });
  // The operator console and companies' support access (modules/operator).
  await app.register(operatorRoutes);
  // Last: it hooks its counters into ingest, the alarm engine and delivery (modules/system/metrics.ts).
  await app.register(metricsRoutes, { token: config.metricsToken });

  await registerConsole(app, config.webDist);
  app.addHook('onClose', async () => {
    app.hub.closeAll();
    app.parameters.close();
    await app.parameters.idle();
    await app.ingest.idle();
    detachAlarms();
    await app.alarms.idle();
    await liveRelay?.close();
    await changeRelay?.close();
    app.deviceDirectory.close();
  });
  return app;
}
