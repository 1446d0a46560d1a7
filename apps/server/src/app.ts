import path from 'node:path';
import type { Redis } from 'ioredis';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { serializerCompiler } from './lib/serializer';
import { JSON_BODY_LIMIT_BYTES, pickLanguage, translate } from '@healthbook/shared';
import type { Config } from './config';
import type { Db } from './db/client';
import { loggerOptions } from './lib/logging';
import { HttpError } from './lib/http-errors';
import authPlugin from './plugins/auth';
import dbPlugin from './plugins/db';
import errorsPlugin from './plugins/errors';
import i18nPlugin from './plugins/i18n';
import mailPlugin from './plugins/mail';
import securityPlugin from './plugins/security';
import storagePlugin, { LocalStorage, type Storage } from './plugins/storage';
import swaggerPlugin from './plugins/swagger';
import webPlugin from './plugins/web';
import authRoutes from './modules/auth/auth.routes';
import devRoutes from './modules/dev/dev.routes';
import mfaRoutes from './modules/mfa/mfa.routes';
import usersRoutes from './modules/users/users.routes';
import profileRoutes from './modules/profile/profile.routes';
import wizardRoutes from './modules/wizard/wizard.routes';
import organizationsRoutes from './modules/organizations/organizations.routes';
import systemRoutes from './modules/system/system.routes';
import invitationsRoutes from './modules/invitations/invitations.routes';
import signupRoutes from './modules/signup/signup.routes';
import recoveryRoutes from './modules/recovery/recovery.routes';

export interface AppDeps {
  db: Db;
  storage?: Storage;
  /** Pretty logs for a person at a terminal; JSON otherwise. */
  prettyLogs?: boolean;
  rateLimitRedis?: Redis;
  /** Raises every per-IP limit to at least this many requests a minute (tests that sign in often). */
  perIpLimitFloor?: number;
}

/** The app factory: external plugins, then app plugins, then routes. The caller owns listen(). */
export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    ...loggerOptions(config.logLevel, deps.prettyLogs ?? false),
    bodyLimit: JSON_BODY_LIMIT_BYTES,
    trustProxy: false,
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

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // Graceful shutdown: once closing starts, new requests get a 503 while in-flight ones finish.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    // Node does not reap a keep-alive connection that goes idle after server.close() (its request
    // was in flight): without this it holds the shutdown open for keepAliveTimeout (72 s).
    app.server.keepAliveTimeout = 1;
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

  // External plugins
  await app.register(securityPlugin);
  await app.register(rateLimit, {
    global: false,
    ...(deps.rateLimitRedis ? { redis: deps.rateLimitRedis, nameSpace: 'healthbook-rl-' } : {}),
  });
  await app.register(swaggerPlugin);

  // App plugins
  await app.register(i18nPlugin);
  await app.register(errorsPlugin);
  await app.register(dbPlugin, { db: deps.db });
  await app.register(storagePlugin, { storage: deps.storage ?? new LocalStorage(path.join(config.dataDir, 'files')) });
  await app.register(mailPlugin, { smtpUrl: config.smtpUrl, from: config.mailFrom });
  await app.register(webPlugin, { webDist: config.webDist });
  await app.register(authPlugin, { jwtSecret: config.jwtSecret });

  // Routes
  await app.register(systemRoutes);
  await app.register(organizationsRoutes);
  await app.register(authRoutes, { jwtSecret: config.jwtSecret, perIpLimit: Math.max(config.authRateLimit, deps.perIpLimitFloor ?? 0) });
  await app.register(mfaRoutes, { jwtSecret: config.jwtSecret });
  await app.register(usersRoutes);
  await app.register(profileRoutes);
  await app.register(wizardRoutes);
  const accountRoutes = { publicUrl: config.publicUrl, perIpLimit: Math.max(config.authRateLimit, deps.perIpLimitFloor ?? 0) };
  await app.register(invitationsRoutes, { publicUrl: config.publicUrl });
  await app.register(signupRoutes, accountRoutes);
  await app.register(recoveryRoutes, accountRoutes);
  if (config.env !== 'production') await app.register(devRoutes);

  return app;
}
