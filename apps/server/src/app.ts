import { hostname } from 'node:os';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { API_BASE, ErrorCode } from '@verdant/api';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { type Bus, openBus } from './cluster/bus.ts';
import { configChanges } from './cluster/changes.ts';
import { clusterRoutes } from './cluster/routes.ts';
import { clusterSpot, type MarketOwner } from './cluster/spot.ts';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { takeBooksLock } from './db/books-lock.ts';
import { type Db, openDb, StartupError } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { serverSecret } from './db/secrets.ts';
import { type SessionEnd, shareSessionEnds } from './http/auth.ts';
import { AppError } from './http/errors.ts';
import { openapiOptions } from './http/openapi.ts';
import { clientErrorHandler, envelopePlugin, frameworkErrors } from './http/plugin.ts';
import { securityHeaders } from './http/security-headers.ts';
import { compressApi, inlineScriptHashes, serveAdminApp, serveWebApp } from './http/static.ts';
import { t } from './i18n/index.ts';
import { clusterJobs, localJobs } from './jobs/singleton.ts';
import adminRoutes from './modules/admin/routes.ts';
import bankRoutes from './modules/bank/routes.ts';
import contractRoutes from './modules/contract/routes.ts';
import { createContractService } from './modules/contract/service.ts';
import kycRoutes from './modules/kyc/routes.ts';
import launchpadRoutes from './modules/launchpad/routes.ts';
import { createLaunchpadService } from './modules/launchpad/service.ts';
import marketRoutes from './modules/market/routes.ts';
import { createMarketService } from './modules/market/service.ts';
import newsRoutes from './modules/news/routes.ts';
import { createNewsService } from './modules/news/service.ts';
import { createNotifier, type Notifier } from './modules/notify/service.ts';
import optionRoutes from './modules/option/routes.ts';
import { createOptionService } from './modules/option/service.ts';
import referralRoutes from './modules/referral/routes.ts';
import { createReferralService } from './modules/referral/service.ts';
import settingsRoutes from './modules/settings/routes.ts';
import { ensureMarketMaker, MarketMaker } from './modules/spot/maker.ts';
import spotRoutes from './modules/spot/routes.ts';
import { createSpotService } from './modules/spot/service.ts';
import supportRoutes from './modules/support/routes.ts';
import trustRoutes from './modules/trust/routes.ts';
import { createTrustService } from './modules/trust/service.ts';
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
  /**
   * Another process took the order books' lock while this one was cut off from the database
   * (db/books-lock.ts): this process must stop. main.ts exits; the default only logs, and orders
   * stay refused.
   */
  onBooksLost?: (reason: string) => void;
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
    // requests that arrive while the server stops get our own 503 in the envelope (below)
    return503OnClosing: false,
  });
  // Bodies are forms or JSON (uploads multipart). Fastify also reads text/plain by default, which
  // would hand the route schemas a bare string; answer 415 for it like any other unknown type.
  app.removeContentTypeParser('text/plain');

  const db =
    opts.db ??
    (await openDb({
      url: config.databaseUrl,
      dataDir: config.dataDir,
      schema: config.databaseSchema,
      limits: config.db,
      warn: (msg) => app.log.warn(msg),
    }));
  if (!opts.db) app.addHook('onClose', () => db.close());
  await migrate(db);
  // REDIS_URL: one of several processes (docs/operations.md). Redis carries socket emits, rate
  // limit counts and session revocations between them.
  let bus: Bus | null = null;
  if (config.redisUrl) {
    const b = await openBus({
      url: config.redisUrl,
      // the schema separates databases (and test files); an embedded database its folder
      namespace: config.databaseSchema ?? (config.databaseUrl ? 'public' : `pglite:${config.dataDir}`),
      port: config.port,
      warn: (msg) => app.log.warn(msg),
    }).catch((e: Error) => {
      throw new StartupError(`cannot reach Redis at REDIS_URL: ${e.message}`);
    });
    bus = b;
    const sessions = shareSessionEnds((end) => {
      b.broadcast('session-end', end).catch((err) =>
        app.log.error({ err }, 'a revoked session could not be announced to the other processes'),
      );
    });
    b.onBroadcast('session-end', (end) => sessions.heard(end as SessionEnd));
    app.addHook('onClose', async () => {
      sessions.stop();
      await b.close();
    });
  }
  const nodeId = bus?.nodeId ?? `${hostname()}:${config.port}/${process.pid}`;
  // A cluster needs the shared database too: with PGlite, REDIS_URL only shares sockets and counts.
  const clustered = !!bus && db.kind === 'postgres' && !!config.databaseUrl;
  // Singleton jobs: on one process of the cluster at a time; alone, all run here.
  const jobs =
    clustered && config.databaseUrl
      ? await clusterJobs({
          url: config.databaseUrl,
          schema: config.databaseSchema,
          nodeId,
          connectTimeoutMs: config.db.connectTimeoutMs,
          pollMs: config.clusterPollMs,
          checkMs: Math.min(config.db.lockCheckMs, 1_000),
          log: app.log,
        })
      : localJobs(nodeId, app.log);
  const ctx: AppContext = {
    config,
    db,
    notifier: opts.notifier ?? createNotifier(config, app.log),
    secret: await serverSecret(db, 'codes'),
    jobs,
    changes: configChanges(bus, app.log),
  };
  app.decorate('ctx', ctx);
  app.decorateRequest('user', null);
  app.decorate('io', attachRealtime(app, bus ?? undefined));
  // notices and personal messages: other modules' events write messages pushed to app.io
  app.decorate('news', createNewsService(ctx, app.io, app.log));
  // markets and market data: the first start's back-fill, then the index feed, run in the
  // background once the server listens (tests without a port start them by hand)
  // referral rebates: the configured default rate is in the database before any fee is charged
  const referral = createReferralService(ctx);
  await referral.applyConfig();
  app.decorate('referral', referral);
  const market = createMarketService(ctx, app.io, app.log);
  app.decorate('market', market);
  app.addHook('onListen', async () => {
    jobs.runSingleton('index-feed', () => market.runFeed());
  });
  app.addHook('onClose', () => market.stop());
  // Alone, one process per database runs the order books (on PGlite the data folder's lock file
  // does it): a second one refuses to start. While the lock's connection is lost, orders are
  // refused with "try again"; stopping the books releases it. In a cluster each market's book is
  // a singleton job instead (cluster/spot.ts).
  const booksLock =
    !clustered && db.kind === 'postgres' && config.databaseUrl
      ? await takeBooksLock({
          url: config.databaseUrl,
          schema: config.databaseSchema,
          connectTimeoutMs: config.db.connectTimeoutMs,
          checkMs: config.db.lockCheckMs,
          log: app.log,
          onLost: opts.onBooksLost ?? ((reason) => app.log.error(reason)),
        })
      : null;
  // spot orders: every book is rebuilt from the open orders before the first request (in a
  // cluster, each when this process takes its market)
  let spot = createSpotService(ctx, market, app.io, app.log, { clustered });
  if (booksLock) {
    const tryAgain = () => new AppError('UNAVAILABLE', 'errors.tryAgain');
    const owned = () => {
      if (!booksLock.held) throw tryAgain();
    };
    // A batch that failed answers "nothing was changed, try again" (409); when it failed because
    // the database cannot be reached, say so as every other request does then (503).
    const settled = async <T>(p: Promise<T>): Promise<T> => {
      try {
        return await p;
      } catch (e) {
        if (
          e instanceof AppError &&
          e.messageKey === 'spot.retry' &&
          !(await db.query('SELECT 1').then(
            () => true,
            () => false,
          ))
        )
          throw tryAgain();
        throw e;
      }
    };
    const { place, cancel, replace, stop } = spot;
    spot.place = async (...a) => {
      owned();
      return settled(place(...a));
    };
    spot.cancel = async (...a) => {
      owned();
      return settled(cancel(...a));
    };
    spot.replace = async (...a) => {
      owned();
      return replace(...a);
    };
    spot.stop = async () => {
      try {
        await stop();
      } finally {
        await booksLock.release();
      }
    };
  }
  await spot.start();
  const local = spot;
  app.addHook('onClose', () => local.stop());
  let marketOwners: () => Promise<MarketOwner[]> = async () =>
    (await market.allMarkets()).map((m) => ({ market: m.symbol, node: nodeId, token: null, since: null }));
  if (clustered && bus) {
    // any process takes any spot request and hands it to the market's owner
    const c = await clusterSpot({ local, market, bus, jobs, db, log: app.log });
    spot = c.spot;
    marketOwners = c.owners;
  } else {
    // a market added while the server runs (a launch) takes orders at once
    market.onAdded(() => {
      void local
        .addMarkets()
        .catch((err) => app.log.error({ err }, 'spot: a new market could not be opened'));
    });
  }
  if (bus) {
    // markets changed on one process are read again on the others (their books open there too)
    const b = bus;
    market.onAdded(({ heard }) => {
      if (!heard)
        void b.broadcast('markets-changed', {}).catch((err) => app.log.error({ err }, 'markets-changed'));
    });
    b.onBroadcast('markets-changed', () => {
      market.added({ heard: true }).catch((err) => app.log.error({ err }, 'markets-changed'));
    });
  }
  app.decorate('spot', spot);
  // timed options: the settlement job starts once the server listens, first settling what fell
  // due while it was down (tests without a port call settleDue by hand)
  const option = createOptionService(ctx, market, app.io, app.log);
  app.decorate('option', option);
  app.addHook('onListen', async () => option.start());
  app.addHook('onClose', () => option.stop());
  // perpetual contracts: the trigger job first fires what ticks recorded while it was stopped
  // trigger, in order, then follows the feed
  const contract = createContractService(ctx, market, app.io, app.log);
  app.decorate('contract', contract);
  jobs.runSingleton('contract-triggers', async () => {
    await contract.start();
    return () => contract.stop();
  });
  // locked deposit products: the accrual job starts once the server listens, first paying the
  // days that fell due while it was down (tests without a port call accrueDue by hand)
  const trust = createTrustService(ctx, app.io, app.log);
  app.decorate('trust', trust);
  app.addHook('onListen', async () => trust.start());
  // new-coin subscription: operators allot, users redeem once unlocked; a singleton job lists a
  // coin's spot market at its launch time (tests without a port run it or launchDue by hand)
  const launchpad = createLaunchpadService(ctx, market, app.io, app.log);
  app.decorate('launchpad', launchpad);
  app.addHook('onListen', async () => {
    jobs.runSingleton('launchpad-launch', () => launchpad.runLaunches());
  });
  // the house market maker quotes once the server listens (tests without a port start it by hand)
  let houseMaker: MarketMaker | null = null;
  if (config.marketMaker.enabled) {
    app.addHook('onListen', async () => {
      jobs.runSingleton('market-maker', async () => {
        // the house quotes around the simulated index: a launched coin's market has none
        const simulated = (await market.markets()).filter((m) => m.simulated);
        const id = await ensureMarketMaker(db, simulated, config.marketMaker);
        const maker = new MarketMaker(id, spot, market, config.marketMaker, app.log);
        await maker.useSettings(db);
        houseMaker = maker;
        maker.start();
        return () => {
          houseMaker = null;
          return maker.stop();
        };
      });
    });
  }
  // Operators' configuration (issue 23): a change reaches the caches of every process
  // (cluster/changes.ts), the markets' list first, then what is built from it. Option delivery
  // times, currencies and the bank account are read on each request: nothing to refresh.
  ctx.changes.on('markets', () => market.added({ heard: true }));
  ctx.changes.on('markets', () => local.reconfigure());
  ctx.changes.on('contracts', () => contract.refreshSpecs());
  ctx.changes.on('maker', () => houseMaker?.useSettings(db));

  await app.register(envelopePlugin);
  await app.register(securityHeaders, { inlineScripts: inlineScriptHashes(config.webDist) });
  // Graceful stop (app.close(), main.ts on SIGTERM/SIGINT): the listener closes and idle
  // keep-alive connections with it; requests in flight finish; a request arriving meanwhile on
  // an open connection gets a localized 503 and the connection closes; each connection closes
  // as soon as it is idle; after shutdownGraceMs the rest are cut.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    app.io.disconnectSockets(true);
    setTimeout(() => app.server.closeAllConnections(), config.shutdownGraceMs).unref();
  });
  app.addHook('onRequest', async (req, reply) => {
    if (!closing) return;
    // answered here rather than thrown: nothing went wrong that the error log should show
    return reply
      .code(503)
      .header('connection', 'close')
      .send({ type: 'error', code: ErrorCode.UNAVAILABLE, message: t(req.lang, 'errors.restarting') });
  });
  app.addHook('onResponse', async () => {
    if (closing) setImmediate(() => app.server.closeIdleConnections());
  });
  await app.register(formbody);
  await app.register(multipart, {
    limits: { fileSize: config.uploadMaxBytes, files: 1, fields: 20, parts: 25 },
  });
  await app.register(rateLimit, {
    global: false,
    // shared by every process of a cluster (keys under the bus's prefix)
    ...(bus ? { redis: bus.redis, nameSpace: `${bus.prefix}rate:` } : {}),
    // thrown as an error, answered by the envelope handler in the user's language
    errorResponseBuilder: (_req, context) =>
      new AppError('RATE_LIMITED', 'errors.rateLimited', { seconds: Math.ceil(context.ttl / 1000) }),
  });
  await app.register(swagger, openapiOptions);
  await app.register(swaggerUi, { routePrefix: `${API_BASE}/docs` });

  await app.register(
    async (api) => {
      await compressApi(api);
      await api.register(settingsRoutes);
      await api.register(userRoutes);
      await api.register(uploadRoutes);
      await api.register(bankRoutes);
      await api.register(kycRoutes);
      await api.register(adminRoutes);
      await api.register(walletRoutes);
      await api.register(marketRoutes);
      await api.register(spotRoutes);
      await api.register(clusterRoutes({ node: nodeId, clustered, markets: () => marketOwners() }));
      await api.register(optionRoutes);
      await api.register(contractRoutes);
      await api.register(trustRoutes);
      await api.register(launchpadRoutes);
      await api.register(referralRoutes);
      await api.register(newsRoutes);
      await api.register(supportRoutes);
    },
    { prefix: API_BASE },
  );

  if (!(await serveWebApp(app, config.webDist))) {
    app.log.warn({ webDist: config.webDist }, 'web app not built: run npm run build');
  }
  if (!(await serveAdminApp(app, config.adminDist))) {
    app.log.warn({ adminDist: config.adminDist }, 'operator console not built: run npm run build');
  }
  // Registered last, so it runs first on close: every singleton job stops (and in a cluster
  // is handed on) while the services and the database it uses are still open.
  app.addHook('onClose', () => jobs.close());
  app.get('/', { schema: { hide: true } }, (_req, reply) => reply.redirect('/h5/'));
  app.get('/h5', { schema: { hide: true } }, (_req, reply) => reply.redirect('/h5/'));
  app.get('/admin', { schema: { hide: true } }, (_req, reply) => reply.redirect('/admin/'));
  return app;
}
