import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/client.ts';
import { NotLoggedInError } from './errors.ts';

export interface SessionUser {
  id: number;
  tokenHash: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireUser`; null on public routes. */
    user: SessionUser | null;
  }
}

/** Tokens are 256 random bits; only their SHA-256 is stored, so a database leak reveals no session. */
export function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function readToken(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  const token = h.startsWith('Bearer ') ? h.slice(7) : h;
  return /^[\w-]{20,100}$/.test(token) ? token : null;
}

export async function createSession(q: Queryable, userId: number, req: FastifyRequest): Promise<string> {
  const { token, hash } = newToken();
  await q.query('INSERT INTO sessions (token_hash, user_id, ip, user_agent) VALUES ($1, $2, $3, $4)', [
    hash,
    userId,
    req.ip,
    (req.headers['user-agent'] ?? '').slice(0, 300),
  ]);
  return token;
}

/** How long a session lives: `sessionIdleSeconds` without a request, `sessionMaxSeconds` after its login. */
export interface SessionLifetimes {
  sessionIdleSeconds: number;
  sessionMaxSeconds: number;
}

/** The conditions of a live session `s` of user `u`; $2 idle and $3 absolute lifetime in seconds. */
const LIVE = `s.revoked_at IS NULL AND u.id = s.user_id AND u.status = 'active'
  AND s.last_seen_at > now() - make_interval(secs => $2)
  AND s.created_at > now() - make_interval(secs => $3)`;

/**
 * Live sessions seen in the last few seconds, so an authenticated request costs no database
 * round trip (and no write) on every call: order placement is many small requests. A session
 * is looked up again, and its last_seen_at written, once per SESSION_CACHE_MS, and never kept
 * past the moment it expires. Revoking drops the cache entries at once, and for a short while
 * afterwards nothing of that user or token is cached, so a lookup racing an uncommitted revoke
 * can't keep a dead session alive. In a cluster (REDIS_URL) every revocation is broadcast
 * (`shareSessionEnds`) and each process drops its entries the same way on hearing it.
 */
export const SESSION_CACHE_MS = 5_000;
const cached = new Map<string, { user: SessionUser; until: number }>();
const revokedUsers = new Map<number, number>();
const revokedTokens = new Map<string, number>();

/** Who is told when sessions end (the socket server disconnects their connections). */
export type SessionEnd = { tokenHash: string } | { userId: number };
const endListeners = new Set<(end: SessionEnd) => void>();

/** Calls `listener` whenever a session or all of a user's sessions end; returns the unsubscribe. */
export function onSessionEnd(listener: (end: SessionEnd) => void): () => void {
  endListeners.add(listener);
  return () => endListeners.delete(listener);
}

function ended(end: SessionEnd): void {
  for (const l of endListeners) l(end);
}

/** Where this process's revocations are sent (the cluster's bus), besides its own listeners. */
const broadcasters = new Set<(end: SessionEnd) => void>();

/**
 * In a cluster: `send` tells the other processes of each revocation made here; answers the
 * function to call with a revocation heard from another process (it drops this process's cache
 * entries, refuses the token or user as if revoked here, and ends their sockets), and the
 * function that stops sending.
 */
export function shareSessionEnds(send: (end: SessionEnd) => void): {
  heard: (end: SessionEnd) => void;
  stop: () => void;
} {
  broadcasters.add(send);
  return {
    heard(end) {
      const now = Date.now();
      if ('tokenHash' in end && typeof end.tokenHash === 'string') {
        revokedTokens.set(end.tokenHash, now);
        cached.delete(end.tokenHash);
      } else if ('userId' in end && Number.isSafeInteger(end.userId)) {
        revokedUsers.set(end.userId, now);
        forget((_, u) => u.id === end.userId);
      } else return;
      ended(end);
    },
    stop: () => broadcasters.delete(send),
  };
}

function announce(end: SessionEnd): void {
  ended(end);
  for (const send of broadcasters) send(end);
}

function forget(match: (hash: string, user: SessionUser) => boolean): void {
  for (const [hash, entry] of cached) if (match(hash, entry.user)) cached.delete(hash);
}

function recentlyRevoked(hash: string, userId: number, now: number): boolean {
  const quiet = now - 2 * SESSION_CACHE_MS;
  for (const m of [revokedUsers, revokedTokens] as Map<unknown, number>[])
    for (const [k, at] of m) if (at < quiet) m.delete(k);
  return revokedTokens.has(hash) || revokedUsers.has(userId);
}

export async function revokeSession(q: Queryable, tokenHash: string): Promise<void> {
  revokedTokens.set(tokenHash, Date.now());
  cached.delete(tokenHash);
  await q.query('UPDATE sessions SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL', [
    tokenHash,
  ]);
  announce({ tokenHash });
}

export async function revokeAllSessions(q: Queryable, userId: number): Promise<void> {
  revokedUsers.set(userId, Date.now());
  forget((_, u) => u.id === userId);
  await q.query('UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL', [userId]);
  announce({ userId });
}

/** The live session a token belongs to, or null. Each lookup counts as activity. */
export async function findSession(
  q: Queryable,
  token: string,
  life: SessionLifetimes,
): Promise<SessionUser | null> {
  const hash = hashToken(token);
  const now = Date.now();
  const hit = cached.get(hash);
  if (hit && hit.until > now) return hit.user;
  // revoked here moments ago: dead, even if the revoke's transaction has not committed yet
  if (revokedTokens.has(hash)) return null;
  const [row] = await q.query<{ user_id: number; left_s: number }>(
    `UPDATE sessions s SET last_seen_at = now()
       FROM users u
      WHERE s.token_hash = $1 AND ${LIVE}
      RETURNING s.user_id,
        EXTRACT(EPOCH FROM s.created_at + make_interval(secs => $3) - now())::float8 AS left_s`,
    [hash, life.sessionIdleSeconds, life.sessionMaxSeconds],
  );
  if (!row) {
    cached.delete(hash);
    return null;
  }
  const user = { id: row.user_id, tokenHash: hash };
  if (!recentlyRevoked(hash, user.id, Date.now())) {
    if (cached.size > 100_000) cached.clear(); // a bound, not a policy: entries are cheap to rebuild
    // never past either lifetime: the absolute one left, or a whole idle period from now
    const keep = Math.min(SESSION_CACHE_MS, row.left_s * 1000, life.sessionIdleSeconds * 1000);
    cached.set(hash, { user, until: now + keep });
  }
  return user;
}

/** Of the given token hashes, those whose sessions are still live (read only: no activity). */
export async function liveSessions(
  q: Queryable,
  hashes: string[],
  life: SessionLifetimes,
): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const rows = await q.query<{ token_hash: string }>(
    `SELECT s.token_hash FROM sessions s JOIN users u ON u.id = s.user_id
      WHERE s.token_hash = ANY($1::text[]) AND ${LIVE}`,
    [hashes, life.sessionIdleSeconds, life.sessionMaxSeconds],
  );
  return new Set(rows.map((r) => r.token_hash));
}

/** preHandler for protected routes: answers 999 without a live session. */
export function requireUser(app: FastifyInstance) {
  return async (req: FastifyRequest) => {
    const token = readToken(req);
    const session = token ? await findSession(app.ctx.db, token, app.ctx.config) : null;
    if (!session) throw new NotLoggedInError(token ? 'errors.sessionEnded' : 'errors.notLoggedIn');
    req.user = session;
  };
}

/** The logged-in user's id; only call behind `requireUser`. */
export function userId(req: FastifyRequest): number {
  if (!req.user) throw new NotLoggedInError();
  return req.user.id;
}

/** preHandler for routes that work logged out but do more when logged in. */
export function optionalUser(app: FastifyInstance) {
  return async (req: FastifyRequest) => {
    const token = readToken(req);
    req.user = token ? await findSession(app.ctx.db, token, app.ctx.config) : null;
  };
}
