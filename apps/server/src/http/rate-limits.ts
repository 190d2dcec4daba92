import { type CreateRateLimitOptions, normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { AppError } from './errors.ts';

export type LimitKind = 'login' | 'codes' | 'passwordChecks';

/** One of @fastify/rate-limit's limiters, as `createRateLimit` makes it. */
type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

interface KindLimiters {
  /** one address guessing one account */
  pair: Limiter;
  /** one account guessed from every address together */
  account: Limiter;
  /** one address, whatever the accounts (phones behind a carrier's NAT share it) */
  address: Limiter;
}

/** Keys kept per limiter: more than any burst of distinct accounts the address ceiling lets through. */
const KEYS_KEPT = 100_000;

const built = new WeakMap<AppContext, Map<LimitKind, KindLimiters>>();

/** An address, with IPv6 taken by its /64 (one subscriber's whole range). */
const addressOf = (req: FastifyRequest) => normalizeIP(req.ip, 64);

/**
 * The account a request is about, so every spelling of one contact shares a count: the
 * logged-in user, an operator's username, or the account, phone number or e-mail address its body names (e-mail lower
 * case, phone numbers by their digits without a leading 0, the dialling code left out). Null
 * when it names none.
 */
export function accountKey(req: FastifyRequest): string | null {
  if (req.user) return `user:${req.user.id}`;
  // an operator's sign-in step (TOTP): the same count as that operator's logins by username
  if (req.operator) return `operator:${req.operator.username}`;
  const body = (req.body ?? {}) as Record<string, unknown>;
  // an operator's username is a name space of its own: never the same count as a user's account
  if (typeof body.username === 'string' && body.username.trim())
    return `operator:${body.username.trim().toLowerCase().slice(0, 254)}`;
  const raw = [body.account, body.mobile, body.email].find((v) => typeof v === 'string' && v.trim());
  if (typeof raw !== 'string') return null;
  const s = raw.trim().toLowerCase().slice(0, 254);
  if (s.includes('@')) return `email:${s}`;
  const digits = s.replace(/\D/g, '').replace(/^0+/, '');
  return digits ? `phone:${digits.slice(-12)}` : `other:${s}`;
}

function limitersFor(app: FastifyInstance, kind: LimitKind): KindLimiters {
  const { config } = app.ctx;
  let perApp = built.get(app.ctx);
  if (!perApp) {
    perApp = new Map();
    built.set(app.ctx, perApp);
  }
  let found = perApp.get(kind);
  if (!found) {
    const make = (max: number, timeWindow: number, keyGenerator: (req: FastifyRequest) => string) =>
      app.createRateLimit({ max, timeWindow, keyGenerator, cache: KEYS_KEPT } as CreateRateLimitOptions);
    const { rateLimits: pair, accountRateLimits: account, addressRateLimits: address } = config;
    // Each limiter's keys begin with its kind and name: in Redis (REDIS_URL) every limiter
    // shares one key space, and one address's logins must not count against its code requests.
    found = {
      pair: make(pair[kind], pair.windowMs, (req) => `${kind}:pair:${addressOf(req)}|${accountKey(req)}`),
      account: make(account[kind], account.windowMs, (req) => `${kind}:account:${accountKey(req)}`),
      address: make(address[kind], address.windowMs, (req) => `${kind}:address:${addressOf(req)}`),
    };
    perApp.set(kind, found);
  }
  return found;
}

/**
 * A preHandler limiting what an attacker would hammer: logins, code sending and password
 * checks. It runs once the body is parsed (and, behind `requireUser`, once the user is known),
 * so it can count by account: per address and account, per account across addresses, and a
 * looser ceiling per address. Routes of one kind share their counts. The first limit that is
 * exceeded answers 429; the limits after it are not counted, so one address hammering one
 * account uses up its own pair limit, not the account's count for everyone. Numbers in
 * config.ts and docs/decisions.md. With REDIS_URL the counts live in Redis (app.ts), shared
 * by every process of the cluster.
 */
export function limit(app: FastifyInstance, kind: LimitKind) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const { pair, account, address } = limitersFor(app, kind);
    const checks = accountKey(req) ? [pair, account, address] : [address];
    for (const limiter of checks) {
      // Counts kept in Redis (REDIS_URL) that cannot be reached: refused as "try again" rather
      // than let through uncounted, since these are the requests an attacker would hammer.
      const state = await limiter(req).catch((err: unknown) => {
        req.log.warn({ err }, 'rate limit counts unreachable');
        throw new AppError('UNAVAILABLE', 'errors.tryAgain');
      });
      if (!state.isAllowed && state.isExceeded) {
        reply.header('retry-after', state.ttlInSeconds);
        throw new AppError('RATE_LIMITED', 'errors.rateLimited', {
          seconds: Math.max(1, state.ttlInSeconds),
        });
      }
    }
  };
}
