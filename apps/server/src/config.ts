import { resolve } from 'node:path';

export interface RateLimits {
  login: number;
  codes: number;
  passwordChecks: number;
  windowMs: number;
}

/** Every setting comes from the environment; the README lists each with its default. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Unset: embedded PGlite in dataDir. */
  databaseUrl: string | undefined;
  /** PostgreSQL schema to use (tests give each file its own). */
  databaseSchema: string | undefined;
  smtpUrl: string | undefined;
  smtpFrom: string;
  smsWebhookUrl: string | undefined;
  customerServiceUrl: string;
  uploadMaxBytes: number;
  /** Uploads one user may make in a rolling hour (see docs/decisions.md, Uploads). */
  uploadsPerHour: number;
  /** Bytes a user may hold in uploads that nothing refers to yet. */
  uploadUnusedMaxBytes: number;
  /** An upload nothing refers to is removed once it is this old (hours). */
  uploadOrphanHours: number;
  /** How often the orphan sweep runs (ms); 0 turns the timer off. */
  uploadSweepMs: number;
  webDist: string;
  /** The built operator console (apps/admin/dist), served at /admin/. */
  adminDist: string;
  logLevel: string;
  /** Requests per address and account (http/rate-limits.ts), per window. */
  rateLimits: RateLimits;
  /** Per account from every address together. */
  accountRateLimits: RateLimits;
  /** Per address whatever the account: a ceiling above what one carrier NAT's users need. */
  addressRateLimits: RateLimits;
  codeTtlSeconds: number;
  codeResendSeconds: number;
  codeMaxAttempts: number;
  fundPasswordMaxFailures: number;
  fundPasswordLockMinutes: number;
  /** A session ends after this long without a request (docs/decisions.md, Security). */
  sessionIdleSeconds: number;
  /** A session ends this long after its login, however active. */
  sessionMaxSeconds: number;
  /** How often live sockets' sessions are checked again (expiry, revocation elsewhere). */
  sessionSweepMs: number;
  /** Extended public keys (xpub…) deposit addresses derive from; unset: development keys. */
  xpubBitcoin: string | undefined;
  xpubEthereum: string | undefined;
  xpubTron: string | undefined;
  /**
   * DEMO_FUNDS=0 switches the demo funds off; they are offered only while every chain runs on
   * development keys (no XPUB_* set), whatever this says.
   */
  demoFunds: boolean;
  /** The platform's bank account for bank deposits, as JSON; unset: labelled placeholders. */
  bankDetails: string | undefined;
  /** Milliseconds between two rounds of the index feed; 0 stops the feed (tests drive it by hand). */
  feedIntervalMs: number;
  /**
   * The length of a locked deposit product's day, in ms (TRUST_DAY_MS): a day of interest, and the
   * term counts these. 86,400,000; shorter only for end-to-end tests and demonstrations.
   */
  trustDayMs: number;
  /**
   * The referral rebate rate (REFERRAL_RATE): the fraction of a referee's trading fee its
   * referrer receives, unless an operator gave the referrer an exclusive rate. 0 to 1.
   */
  referralRate: string;
  /** Seed of the simulated index feed: the same seed gives the same prices at the same times. */
  feedSeed: string;
  /** Days of simulated chart history written on first start for a market without any; 0: none. */
  backfillDays: number;
  /** Market data goes out on the socket at most once per stream in this many milliseconds. */
  marketPublishMs: number;
  /** The house market maker: quotes both sides of every book around the index (spot/maker.ts). */
  marketMaker: {
    enabled: boolean;
    /** Price levels per side. */
    levels: number;
    /** Distance of the best quote from the index, and between levels, in basis points. */
    spreadBps: number;
    stepBps: number;
    /** Value of each quote, in the quote currency. */
    sizeQuote: string;
    refreshMs: number;
    /** Quote currency the house funds it with on first start (base currencies: the same value each). */
    fundQuote: string;
  };
  /**
   * PostgreSQL limits (db/client.ts), so a hung network or database holds nobody forever; 0
   * turns one off. See docs/decisions.md (Reliability).
   */
  db: {
    /** Opening a connection, or waiting for a free one in the pool. */
    connectTimeoutMs: number;
    /** Server side: a statement running longer is cancelled. */
    statementTimeoutMs: number;
    /** Client side: a statement unanswered this long (a stalled network) drops its connection. */
    queryTimeoutMs: number;
    /** Server side: a transaction left idle this long is ended (its connection closed). */
    idleInTransactionTimeoutMs: number;
    /** At start, how long to keep retrying an unreachable database before giving up. */
    startWaitMs: number;
    /** How often the process checks the connection that holds the books' lock (db/books-lock.ts). */
    lockCheckMs: number;
  };
  /** After SIGTERM/SIGINT, how long in-flight requests may take before connections are cut. */
  shutdownGraceMs: number;
  /**
   * redis://…: run as one of several processes on one PostgreSQL (docs/operations.md): the
   * Socket.IO Redis adapter, rate limits and session revocations shared, each market's book and
   * each singleton job on one process. Unset: one process.
   */
  redisUrl: string | undefined;
  /** How often a process tries to take markets and singleton jobs nobody holds (cluster only). */
  clusterPollMs: number;
}

function int(v: string | undefined, fallback: number): number {
  if (v === undefined || v === '') return fallback;
  const n = Number.parseInt(v, 10);
  if (!Number.isFinite(n) || n < 0) throw new Error(`not a whole number: ${v}`);
  return n;
}

/** A fraction from 0 to 1 as a decimal string (money rates never pass through a number). */
function rate(v: string | undefined, fallback: string): string {
  if (v === undefined || v === '') return fallback;
  if (!/^(0(\.\d{1,8})?|1(\.0{1,8})?)$/.test(v)) throw new Error(`not a rate from 0 to 1: ${v}`);
  return v;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const root = resolve(import.meta.dirname, '../../..');
  return {
    port: int(env.PORT, 8080),
    host: env.HOST || '127.0.0.1',
    dataDir: resolve(env.DATA_DIR || resolve(root, 'data')),
    databaseUrl: env.DATABASE_URL || undefined,
    databaseSchema: env.DATABASE_SCHEMA || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    smtpFrom: env.SMTP_FROM || 'Verdant <no-reply@verdant.local>',
    smsWebhookUrl: env.SMS_WEBHOOK_URL || undefined,
    customerServiceUrl: env.CUSTOMER_SERVICE_URL || '#/pages/help-center/chat',
    uploadMaxBytes: int(env.UPLOAD_MAX_BYTES, 5 * 1024 * 1024),
    uploadsPerHour: int(env.UPLOADS_PER_HOUR, 20),
    uploadUnusedMaxBytes: int(env.UPLOAD_UNUSED_MAX_BYTES, 30 * 1024 * 1024),
    uploadOrphanHours: int(env.UPLOAD_ORPHAN_HOURS, 24),
    uploadSweepMs: int(env.UPLOAD_SWEEP_MS, 3_600_000),
    webDist: resolve(env.WEB_DIST || resolve(root, 'apps/web/dist')),
    adminDist: resolve(env.ADMIN_DIST || resolve(root, 'apps/admin/dist')),
    logLevel: env.LOG_LEVEL || 'info',
    rateLimits: {
      login: int(env.RATE_LIMIT_LOGIN, 10),
      codes: int(env.RATE_LIMIT_CODES, 5),
      passwordChecks: int(env.RATE_LIMIT_PASSWORD_CHECKS, 10),
      windowMs: int(env.RATE_LIMIT_WINDOW_MS, 60_000),
    },
    accountRateLimits: {
      login: int(env.RATE_LIMIT_ACCOUNT_LOGIN, 30),
      codes: int(env.RATE_LIMIT_ACCOUNT_CODES, 10),
      passwordChecks: int(env.RATE_LIMIT_ACCOUNT_PASSWORD_CHECKS, 30),
      windowMs: int(env.RATE_LIMIT_ACCOUNT_WINDOW_MS, 3_600_000),
    },
    addressRateLimits: {
      login: int(env.RATE_LIMIT_ADDRESS_LOGIN, 60),
      codes: int(env.RATE_LIMIT_ADDRESS_CODES, 30),
      passwordChecks: int(env.RATE_LIMIT_ADDRESS_PASSWORD_CHECKS, 60),
      windowMs: int(env.RATE_LIMIT_ADDRESS_WINDOW_MS, 60_000),
    },
    codeTtlSeconds: 600,
    codeResendSeconds: 60,
    codeMaxAttempts: 5,
    fundPasswordMaxFailures: 5,
    fundPasswordLockMinutes: 30,
    sessionIdleSeconds: int(env.SESSION_IDLE_HOURS, 7 * 24) * 3600,
    sessionMaxSeconds: int(env.SESSION_MAX_HOURS, 30 * 24) * 3600,
    sessionSweepMs: int(env.SESSION_SWEEP_MS, 60_000),
    xpubBitcoin: env.XPUB_BITCOIN || undefined,
    xpubEthereum: env.XPUB_ETHEREUM || undefined,
    xpubTron: env.XPUB_TRON || undefined,
    demoFunds: env.DEMO_FUNDS !== '0',
    bankDetails: env.BANK_DETAILS || undefined,
    feedIntervalMs: int(env.FEED_INTERVAL_MS, 1000),
    trustDayMs: Math.max(1000, int(env.TRUST_DAY_MS, 86_400_000)),
    referralRate: rate(env.REFERRAL_RATE, '0.2'),
    feedSeed: env.FEED_SEED || 'verdant',
    backfillDays: int(env.BACKFILL_DAYS, 30),
    marketPublishMs: int(env.MARKET_PUBLISH_MS, 300),
    marketMaker: {
      enabled: (env.MARKET_MAKER ?? '1') !== '0',
      levels: int(env.MM_LEVELS, 5),
      spreadBps: int(env.MM_SPREAD_BPS, 10),
      stepBps: int(env.MM_STEP_BPS, 5),
      sizeQuote: env.MM_SIZE_QUOTE || '2000',
      refreshMs: int(env.MM_REFRESH_MS, 2000),
      fundQuote: env.MM_FUND_QUOTE || '50000000',
    },
    db: {
      connectTimeoutMs: int(env.DB_CONNECT_TIMEOUT_MS, 5_000),
      statementTimeoutMs: int(env.DB_STATEMENT_TIMEOUT_MS, 15_000),
      queryTimeoutMs: int(env.DB_QUERY_TIMEOUT_MS, 20_000),
      idleInTransactionTimeoutMs: int(env.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS, 30_000),
      startWaitMs: int(env.DB_START_WAIT_MS, 60_000),
      lockCheckMs: int(env.DB_LOCK_CHECK_MS, 5_000),
    },
    shutdownGraceMs: int(env.SHUTDOWN_GRACE_MS, 10_000),
    redisUrl: env.REDIS_URL || undefined,
    clusterPollMs: int(env.CLUSTER_POLL_MS, 1_000),
    ...overrides,
  };
}
