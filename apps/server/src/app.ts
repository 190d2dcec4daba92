import { existsSync } from 'node:fs';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { API_BASE } from '@verdant/api';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { type Db, openDb } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { serverSecret } from './db/secrets.ts';
import { AppError } from './http/errors.ts';
import { openapiOptions } from './http/openapi.ts';
import { clientErrorHandler, envelopePlugin, frameworkErrors } from './http/plugin.ts';
import adminRoutes from './modules/admin/routes.ts';
import bankRoutes from './modules/bank/routes.ts';
import kycRoutes from './modules/kyc/routes.ts';
import marketRoutes from './modules/market/routes.ts';
import { createMarketService } from './modules/market/service.ts';
import { createNotifier, type Notifier } from './modules/notify/service.ts';
import settingsRoutes from './modules/settings/routes.ts';
import { ensureMarketMaker, MarketMaker } from './modules/spot/maker.ts';
import spotRoutes from './modules/spot/routes.ts';
import { createSpotService } from './modules/spot/service.ts';
import uploadRoutes from './modules/uploads/routes.ts';
import userRoutes from './modules/user/routes.ts';
import walletRoutes from './modules/wallet/routes.ts';
import { attachRealtime } from './realtime/index.ts';

export interface BuildOptions {
  config: Config;
  logger?: FastifyServerOptions['logger'];
  /** An already open database (tests share one per file); opened from config otherwise. */
  db?: Db;
  notifier?: Notifier;
}

export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config } = opts;
  const app = Fastify({
    logger: opts.logger ?? { level: config.logLevel },
    requestTimeout: 60_000,
    bodyLimit: 1024 * 1024,
    trustProxy: process.env.TRUST_PROXY === '1',
    clientErrorHandler,
    frameworkErrors,
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: true } },
  });
  // Bodies are forms or JSON (uploads multipart). Fastify also reads text/plain by default, which
  // would hand the route schemas a bare string; answer 415 for it like any other unknown type.
  app.removeContentTypeParser('text/plain');

  const db =
    opts.db ??
    (await openDb({ url: config.databaseUrl, dataDir: config.dataDir, schema: config.databaseSchema }));
  if (!opts.db) app.addHook('onClose', () => db.close());
  await migrate(db);
  const ctx: AppContext = {
    config,
    db,
    notifier: opts.notifier ?? createNotifier(config, app.log),
    secret: await serverSecret(db, 'codes'),
  };
  app.decorate('ctx', ctx);
  app.decorateRequest('user', null);
  app.decorate('io', attachRealtime(app));
  // markets and market data: the first start's back-fill, then the index feed, run in the
  // background once the server listens (tests without a port start them by hand)
  const market = createMarketService(ctx, app.io, app.log);
  app.decorate('market', market);
  app.addHook('onListen', async () => {
    void market.start();
  });
  app.addHook('onClose', () => market.stop());
  // spot orders: every book is rebuilt from the open orders before the first request
  const spot = createSpotService(ctx, market, app.io, app.log);
  app.decorate('spot', spot);
  await spot.start();
  app.addHook('onClose', () => spot.stop());
  // the house market maker quotes once the server listens (tests without a port start it by hand)
  if (config.marketMaker.enabled) {
    let maker: MarketMaker | null = null;
    app.addHook('onListen', async () => {
      const id = await ensureMarketMaker(db, await market.markets(), config.marketMaker);
      maker = new MarketMaker(id, spot, market, config.marketMaker, app.log);
      maker.start();
    });
    app.addHook('onClose', async () => {
      await maker?.stop();
    });
  }

  await app.register(envelopePlugin);
  await app.register(formbody);
  await app.register(multipart, {
    limits: { fileSize: config.uploadMaxBytes, files: 1, fields: 20, parts: 25 },
  });
  await app.register(rateLimit, {
    global: false,
    // thrown as an error, answered by the envelope handler in the user's language
    errorResponseBuilder: (_req, context) =>
      new AppError('RATE_LIMITED', 'errors.rateLimited', { seconds: Math.ceil(context.ttl / 1000) }),
  });
  await app.register(swagger, openapiOptions);
  await app.register(swaggerUi, { routePrefix: `${API_BASE}/docs` });

  await app.register(
    async (api) => {
      await api.register(settingsRoutes);
      await api.register(userRoutes);
      await api.register(uploadRoutes);
      await api.register(bankRoutes);
      await api.register(kycRoutes);
      await api.register(adminRoutes);
      await api.register(walletRoutes);
      await api.register(marketRoutes);
      await api.register(spotRoutes);
    },
    { prefix: API_BASE },
  );

  if (existsSync(config.webDist)) {
    await app.register(fastifyStatic, { root: config.webDist, prefix: '/h5/', decorateReply: false });
  } else {
    app.log.warn({ webDist: config.webDist }, 'web app not built: run npm run build');
  }
  app.get('/', { schema: { hide: true } }, (_req, reply) => reply.redirect('/h5/'));
  app.get('/h5', { schema: { hide: true } }, (_req, reply) => reply.redirect('/h5/'));
  return app;
}
