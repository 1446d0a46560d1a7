import type { Redis } from 'ioredis';
import Fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyReply, type FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { validatorCompiler } from './lib/validator';
import { serializerCompiler } from './lib/serializer';
import { JSON_BODY_LIMIT_BYTES, pickLanguage, translate } from '@healthbook/shared';
import { configWarnings, type Config } from './config';
import type { Db } from './db/client';
import { loggerOptions } from './lib/logging';
import { HttpError } from './lib/http-errors';
import { SnapshotLocalStore } from './lib/rate-limit-store';
import authPlugin from './plugins/auth';
import compressionPlugin from './plugins/compression';
import dbPlugin from './plugins/db';
import errorsPlugin from './plugins/errors';
import i18nPlugin from './plugins/i18n';
import mailPlugin from './plugins/mail';
import securityPlugin from './plugins/security';
import storagePlugin, { createStorage, type Storage } from './plugins/storage';
import metricsPlugin, { metricsRoutes } from './plugins/metrics';
import swaggerPlugin, { swaggerUiPlugin } from './plugins/swagger';
import webPlugin, { webIndexPlugin } from './plugins/web';
import auditPlugin from './modules/audit/audit.service';
import limiterPlugin from './modules/limits/limits.service';
import mfaServicePlugin from './modules/mfa/mfa.service';
import authServicePlugin from './modules/auth/auth.service';
import usersServicePlugin from './modules/users/users.service';
import profileServicePlugin from './modules/profile/profile.service';
import wizardServicePlugin from './modules/wizard/wizard.service';
import invitationsServicePlugin from './modules/invitations/invitations.service';
import signupServicePlugin from './modules/signup/signup.service';
import recoveryServicePlugin from './modules/recovery/recovery.service';
import accountSetupServicePlugin from './modules/recovery/account-setup';
import organizationsServicePlugin from './modules/organizations/organizations.service';
import featuresServicePlugin from './modules/features/features.service';
import patientsServicePlugin from './modules/patients/patients.service';
import { patientsRoutes } from './modules/patients/patients.routes';
import recordsServicePlugin from './modules/records/records.service';
import documentsServicePlugin from './modules/documents/documents.service';
import { documentsRoutes } from './modules/documents/documents.routes';
import insuranceServicePlugin from './modules/insurance/insurance.service';
import { insuranceRoutes } from './modules/insurance/insurance.routes';
import { recordsRoutes } from './modules/records/records.routes';
import operationsServicePlugin from './modules/operations/operations.service';
import cachePlugin from './plugins/cache';
import { featuresRoutes } from './modules/features/features.routes';
import { operationsRoutes } from './modules/operations/operations.routes';
import { publicAuthRoutes, signedInAuthRoutes } from './modules/auth/auth.routes';
import { devRoutes } from './modules/dev/dev.routes';
import { mfaRoutes } from './modules/mfa/mfa.routes';
import { publicUserRoutes, signedInUserRoutes } from './modules/users/users.routes';
import { profileRoutes } from './modules/profile/profile.routes';
import { wizardRoutes } from './modules/wizard/wizard.routes';
import { organizationSettingsRoutes, organizationsRoutes } from './modules/organizations/organizations.routes';
import { refuseDeactivatedOrganizations } from './modules/organizations/organizations.service';
import { organizationAdminRoutes } from './modules/organizations/organization-admin.routes';
import { systemRoutes } from './modules/system/system.routes';
import { invitationsRoutes } from './modules/invitations/invitations.routes';
import { signupRoutes } from './modules/signup/signup.routes';
import { accountSetupRoutes, recoveryRoutes } from './modules/recovery/recovery.routes';
import calendarServicePlugin from './modules/calendar/calendar.service';
import calendarFeedServicePlugin from './modules/calendar/calendar-feed.service';
import { calendarFeedRoutes, calendarRoutes } from './modules/calendar/calendar.routes';
import providersServicePlugin from './modules/appointments/providers.service';
import appointmentsServicePlugin from './modules/appointments/appointments.service';
import { appointmentsRoutes } from './modules/appointments/appointments.routes';
import visitsServicePlugin from './modules/visits/visits.service';
import { visitsRoutes } from './modules/visits/visits.routes';
import { visitSocketRoutes } from './modules/visits/visits.socket';
import sharingServicePlugin from './modules/sharing/sharing.service';
import { sharingPublicRoutes, sharingRoutes } from './modules/sharing/sharing.routes';
import exportServicePlugin from './modules/export/export.service';
import { exportRoutes } from './modules/export/export.routes';
import fhirServicePlugin from './modules/fhir/fhir.service';
import { fhirRoutes } from './modules/fhir/fhir.routes';
import fhirDocumentsServicePlugin from './modules/fhir/fhir-documents.service';
import { fhirDocumentsRoutes } from './modules/fhir/fhir-documents.routes';
import { appleHealthRoutes } from './modules/fhir/apple-health/apple-health.routes';
import appleHealthServicePlugin from './modules/fhir/apple-health/apple-health.service';
import websocket from '@fastify/websocket';
import { CHAT_FRAME_MAX_BYTES } from '@healthbook/shared';
import chatServicePlugin from './modules/chat/chat.service';
import socketTicketsServicePlugin from './modules/sockets/socket-tickets.service';
import surveysServicePlugin from './modules/surveys/surveys.service';
import { surveysRoutes } from './modules/surveys/surveys.routes';
import journalServicePlugin from './modules/journal/journal.service';
import { journalRoutes } from './modules/journal/journal.routes';
import connectionHubServicePlugin from './modules/connection-hub/connection-hub.service';
import { connectionHubPublicRoutes, connectionHubRoutes } from './modules/connection-hub/connection-hub.routes';
import careNetworkServicePlugin from './modules/care-network/care-network.service';
import { careNetworkPublicRoutes, careNetworkRoutes } from './modules/care-network/care-network.routes';
import familyMembersServicePlugin from './modules/family-members/family-members.service';
import { familyMembersRoutes } from './modules/family-members/family-members.routes';
import accountClosingServicePlugin from './modules/account-closing/account-closing.service';
import { accountClosingRoutes } from './modules/account-closing/account-closing.routes';
import { chatRoutes } from './modules/chat/chat.routes';
import type { ChatSocketLimits } from './modules/chat/chat-socket-limits';
import { chatSocketRoutes } from './modules/chat/chat.socket';
import helpServicePlugin from './modules/help/help.service';
import { helpEditorRoutes, helpRoutes } from './modules/help/help.routes';
import symptomCheckerServicePlugin from './modules/symptom-checker/symptom-checker.service';
import { symptomCheckerRoutes } from './modules/symptom-checker/symptom-checker.routes';
import peopleServicePlugin from './modules/people/people.service';
import patientImportsServicePlugin from './modules/people/patient-imports.service';
import { peopleRoutes } from './modules/people/people.routes';
import sourcesServicePlugin from './modules/sources/sources.service';
import { sourcesRoutes } from './modules/sources/sources.routes';
import type { RetryPolicy } from './modules/sources/source-fhir';

/** One registered route, and whether it lives in the public context (everything else needs a token). */
export interface RouteEntry {
  method: string;
  url: string;
  public: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** From now on every new request gets 503 + Retry-After + Connection: close; in-flight ones finish. */
    beginShutdown(): void;
    isShuttingDown(): boolean;
    /** Every route registered, with its context: the route-table test walks it. */
    routeTable: RouteEntry[];
  }
}

export interface AppDeps {
  db: Db;
  storage?: Storage;
  /** Pretty logs for a person at a terminal; JSON otherwise. */
  prettyLogs?: boolean;
  rateLimitRedis?: Redis;
  /** Raises every per-IP limit to at least this many requests a minute (tests that sign in often). */
  perIpLimitFloor?: number;
  /** Raises a patient's hourly and daily share allowances to at least this many (tests that share often). */
  shareLimitFloor?: number;
  /** More route plugins for the authenticated context (tests; embedding). */
  signedInRoutes?: FastifyPluginAsync[];
  /** Other limits for the chat socket than CHAT_SOCKET_LIMITS (tests). */
  chatLimits?: Partial<ChatSocketLimits>;
  /** Other backoff for requests to record sources than DEFAULT_RETRY (tests: milliseconds, not seconds). */
  sourceRetry?: RetryPolicy;
}

/** TRUST_PROXY as a hop count: the nearest `hops` proxies may name the client (X-Forwarded-For). */
const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

/** The app factory: external plugins, then app plugins, then routes. The caller owns listen(). */
export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    ...loggerOptions(config.logLevel, deps.prettyLogs ?? false),
    bodyLimit: JSON_BODY_LIMIT_BYTES,
    // A number of hops trusts that many proxies in front (what Fastify does for a number; its types take only the function).
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    routerOptions: { maxParamLength: 512, ignoreTrailingSlash: false, ignoreDuplicateSlashes: false },
    // Errors raised before routing (a malformed address) get the same shape as every other error.
    frameworkErrors: (error, request, reply) => {
      const lang = pickLanguage(request.headers['accept-language']);
      const key = error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_ASYNC_CONSTRAINT' ? 'errors:badUrl' : 'errors:invalidRequest';
      void (reply as unknown as FastifyReply).code(400).send({ detail: translate(lang, key) });
    },
  }).withTypeProvider<ZodTypeProvider>();

  for (const warning of configWarnings(config)) app.log.warn(warning);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // Graceful shutdown: once closing starts, new requests get a 503 while in-flight ones finish.
  // server.ts calls beginShutdown() at SIGTERM, keeps listening for a grace period, then close().
  let closing = false;
  app.decorate('beginShutdown', () => {
    closing = true;
  });
  app.decorate('isShuttingDown', () => closing);
  app.addHook('preClose', (done) => {
    closing = true;
    // Node does not reap a keep-alive connection that goes idle after server.close() (its request
    // was in flight): without this it holds the shutdown open for keepAliveTimeout (72 s).
    app.server.keepAliveTimeout = 1;
    done();
  });
  // One line per request, once answered: the route's pattern (never the path: it may hold a token), the status and the time.
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info({ method: request.method, route: request.routeOptions.url ?? 'unmatched', status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
    done();
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    if (closing) {
      reply.header('Connection', 'close');
      return done(new HttpError(503, 'errors:shuttingDown', {}, { 'Retry-After': '5' }));
    }
    done();
  });

  // Every route, and whether the public context holds it (deny by default: the rest authenticates).
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routeTable.push({ method, url: route.url, public: false });
  });

  // External plugins
  await app.register(securityPlugin, { publicUrl: config.publicUrl });
  await app.register(compressionPlugin);
  await app.register(rateLimit, {
    global: false,
    ...(deps.rateLimitRedis ? { redis: deps.rateLimitRedis, nameSpace: 'healthbook-rl-' } : { store: SnapshotLocalStore }),
  });
  await app.register(swaggerPlugin);
  // The chat's socket: a frame larger than the cap closes it (1009) before it is read.
  await app.register(websocket, { options: { maxPayload: CHAT_FRAME_MAX_BYTES } });

  // App plugins: infrastructure, then each service once (named, with their dependencies)
  await app.register(i18nPlugin);
  await app.register(errorsPlugin);
  await app.register(dbPlugin, { db: deps.db });
  const storage = deps.storage ?? createStorage(config);
  // What the app made, it closes; a store passed in belongs to the caller.
  if (!deps.storage && storage.close) app.addHook('onClose', async () => storage.close?.());
  await app.register(storagePlugin, { storage });
  await app.register(metricsPlugin, config.metrics);
  await app.register(mailPlugin, { smtpUrl: config.smtpUrl, from: config.mailFrom });
  await app.register(webIndexPlugin, { webDist: config.webDist });
  await app.register(cachePlugin, { redis: deps.rateLimitRedis });
  await app.register(authPlugin, { jwtSecret: config.jwtSecret });
  await app.register(auditPlugin);
  await app.register(organizationsServicePlugin);
  await app.register(featuresServicePlugin);
  await app.register(limiterPlugin, { raised: deps.shareLimitFloor ? { sharesHour: deps.shareLimitFloor, sharesDay: deps.shareLimitFloor } : {} });
  await app.register(mfaServicePlugin, { jwtSecret: config.jwtSecret });
  await app.register(authServicePlugin);
  await app.register(usersServicePlugin, { publicUrl: config.publicUrl });
  await app.register(profileServicePlugin);
  await app.register(invitationsServicePlugin, { publicUrl: config.publicUrl });
  await app.register(signupServicePlugin, { publicUrl: config.publicUrl });
  await app.register(recoveryServicePlugin, { publicUrl: config.publicUrl });
  await app.register(accountSetupServicePlugin);
  await app.register(operationsServicePlugin);
  await app.register(patientsServicePlugin);
  await app.register(recordsServicePlugin);
  await app.register(wizardServicePlugin);
  await app.register(documentsServicePlugin);
  await app.register(insuranceServicePlugin);
  await app.register(calendarServicePlugin);
  await app.register(calendarFeedServicePlugin);
  await app.register(providersServicePlugin);
  await app.register(appointmentsServicePlugin, { publicUrl: config.publicUrl, mailFrom: config.mailFrom });
  await app.register(surveysServicePlugin);
  await app.register(journalServicePlugin);
  await app.register(careNetworkServicePlugin, { publicUrl: config.publicUrl });
  await app.register(familyMembersServicePlugin);
  await app.register(exportServicePlugin);
  await app.register(fhirServicePlugin);
  await app.register(fhirDocumentsServicePlugin);
  await app.register(appleHealthServicePlugin);
  await app.register(connectionHubServicePlugin);
  await app.register(sharingServicePlugin, { publicUrl: config.publicUrl });
  await app.register(socketTicketsServicePlugin);
  await app.register(chatServicePlugin);
  await app.register(visitsServicePlugin, { turn: config.turn });
  await app.register(helpServicePlugin);
  await app.register(symptomCheckerServicePlugin, { checker: config.symptomChecker });
  await app.register(accountClosingServicePlugin, { publicUrl: config.publicUrl });
  await app.register(peopleServicePlugin, { publicUrl: config.publicUrl });
  await app.register(patientImportsServicePlugin);
  await app.register(sourcesServicePlugin, {
    publicUrl: config.publicUrl,
    jwtSecret: config.jwtSecret,
    sync: { policy: { allowInsecure: config.sources.allowInsecure, timeoutMs: config.sources.timeoutMs }, everyMs: config.sources.syncEveryMs, ...(deps.sourceRetry ? { retry: deps.sourceRetry } : {}) },
  });

  const perIpLimit = Math.max(config.authRateLimit, deps.perIpLimitFloor ?? 0);

  // Routes, in two sibling contexts. Public: what needs no token (sign-in, sign-up, recovery,
  // branding, links that are their own proof, the web app). Everything else registers in the
  // authenticated context, whose hook authenticates before anything else runs.
  await app.register(async (publicApi) => {
    publicApi.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) {
        const entry = routeTable.find((r) => r.method === method && r.url === route.url);
        if (entry) entry.public = true;
        else routeTable.push({ method, url: route.url, public: true });
      }
    });
    // Routes acting in a deactivated organisation's name are refused (one rule: organizations.requireActive).
    refuseDeactivatedOrganizations(publicApi);
    if (config.apiDocs) await publicApi.register(swaggerUiPlugin);
    await publicApi.register(webPlugin, { webDist: config.webDist });
    await publicApi.register(systemRoutes, { redis: deps.rateLimitRedis });
    if (config.metrics.token) await publicApi.register(metricsRoutes, { token: config.metrics.token });
    await publicApi.register(organizationsRoutes);
    await publicApi.register(publicAuthRoutes, { perIpLimit });
    await publicApi.register(connectionHubPublicRoutes, { perIpLimit });
    await publicApi.register(signupRoutes, { perIpLimit });
    await publicApi.register(recoveryRoutes, { perIpLimit });
    await publicApi.register(accountSetupRoutes, { perIpLimit });
    await publicApi.register(publicUserRoutes, { perIpLimit });
    await publicApi.register(calendarFeedRoutes, { publicUrl: config.publicUrl, perIpLimit });
    await publicApi.register(sharingPublicRoutes, { perIpLimit });
    await publicApi.register(careNetworkPublicRoutes, { perIpLimit });
    await publicApi.register(chatSocketRoutes, { publicUrl: config.publicUrl, redis: deps.rateLimitRedis, limits: deps.chatLimits });
    await publicApi.register(visitSocketRoutes, { publicUrl: config.publicUrl });
    if (config.env !== 'production') await publicApi.register(devRoutes);
  });

  await app.register(async (authenticated) => {
    authenticated.addHook('onRequest', authenticated.authenticate);
    // A route of a feature (config.feature) answers 403 unless the actor's organisation has it on:
    // the check is added to those routes only (after authentication), costing the others nothing.
    authenticated.addHook('onRoute', (route) => {
      const feature = (route.config as { feature?: string | readonly string[] } | undefined)?.feature;
      if (!feature) return;
      const requireFeature = async (request: FastifyRequest) => authenticated.features.require(request.ctx, feature);
      route.onRequest = [...[route.onRequest ?? []].flat(), requireFeature] as typeof route.onRequest;
    });
    await authenticated.register(signedInAuthRoutes, { perIpLimit });
    await authenticated.register(mfaRoutes);
    await authenticated.register(signedInUserRoutes);
    await authenticated.register(profileRoutes);
    await authenticated.register(wizardRoutes);
    await authenticated.register(invitationsRoutes);
    await authenticated.register(featuresRoutes);
    await authenticated.register(operationsRoutes);
    await authenticated.register(organizationSettingsRoutes);
    await authenticated.register(organizationAdminRoutes);
    await authenticated.register(patientsRoutes);
    await authenticated.register(recordsRoutes, { publicUrl: config.publicUrl });
    await authenticated.register(documentsRoutes);
    await authenticated.register(insuranceRoutes);
    await authenticated.register(calendarRoutes, { publicUrl: config.publicUrl });
    await authenticated.register(appointmentsRoutes);
    await authenticated.register(visitsRoutes);
    await authenticated.register(sharingRoutes);
    await authenticated.register(exportRoutes);
    await authenticated.register(fhirRoutes);
    await authenticated.register(fhirDocumentsRoutes);
    await authenticated.register(appleHealthRoutes);
    await authenticated.register(chatRoutes);
    await authenticated.register(surveysRoutes);
    await authenticated.register(journalRoutes);
    await authenticated.register(connectionHubRoutes, { perIpLimit });
    await authenticated.register(careNetworkRoutes);
    await authenticated.register(familyMembersRoutes);
    await authenticated.register(helpRoutes);
    await authenticated.register(helpEditorRoutes);
    await authenticated.register(symptomCheckerRoutes);
    await authenticated.register(accountClosingRoutes, { perIpLimit });
    await authenticated.register(peopleRoutes);
    await authenticated.register(sourcesRoutes);
    for (const routes of deps.signedInRoutes ?? []) await authenticated.register(routes);
  });

  return app;
}
