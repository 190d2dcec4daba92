import type { FastifyInstance, FastifyRequest } from 'fastify';

type Kind = 'login' | 'codes' | 'passwordChecks';

/**
 * Per-route limits for what an attacker would hammer: logins, code sending and password
 * checks. Keyed by address, and by the account named in the body where there is one, so one
 * address cannot try many passwords for one account nor flood one phone with codes.
 */
export function limit(app: FastifyInstance, kind: Kind) {
  const { rateLimits } = app.ctx.config;
  return {
    rateLimit: {
      max: rateLimits[kind],
      timeWindow: rateLimits.windowMs,
      keyGenerator: (req: FastifyRequest) => {
        const b = (req.body ?? {}) as Record<string, unknown>;
        const who = b.account ?? b.mobile ?? b.email ?? '';
        return `${kind}:${req.ip}:${typeof who === 'string' ? who.toLowerCase().slice(0, 100) : ''}`;
      },
    },
  };
}
