// Every operator route, read from the app's own route list (its OpenAPI document), against the
// roles that may use it: no token and a user's token answer 999, a role not allowed answers 403.
// A route this table does not name fails the test: a new operator route states its roles here.
import type { OperatorRole } from '@verdant/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, registerByEmail, startHarness } from '../../test/harness.ts';
import { operatorLogin } from './testing.ts';

const ANY: OperatorRole[] = ['admin', 'reviewer', 'support'];
const REVIEW: OperatorRole[] = ['admin', 'reviewer'];
const SUPPORT: OperatorRole[] = ['admin', 'support'];
const ADMIN: OperatorRole[] = ['admin'];

/** Sign-in steps: login needs no session, the others a session still at that step. */
const SIGN_IN = /^(post) \/api\/admin\/(login|password|totp\/(setup|enable|verify))$/;

/** First match wins. Paths as the OpenAPI document writes them (`{name}` for a parameter). */
const RULES: [RegExp, OperatorRole[]][] = [
  [/^(get \/api\/admin\/me|post \/api\/admin\/logout)$/, ANY],
  [/^\w+ \/api\/admin\/operators(\/.*)?$/, ADMIN],
  [/^\w+ \/api\/admin\/audit$/, ADMIN],
  [/^\w+ \/api\/admin\/cluster$/, ADMIN],
  [/^\w+ \/api\/admin\/config\/.*$/, ADMIN],
  // configuration of deposit products and new-coin projects (CONFIG_ROLES)
  [/^\w+ \/api\/admin\/(trust|launchpad\/projects?)(\/.*)?$/, ADMIN],
  [/^post \/api\/admin\/users\/(freeze|unfreeze)$/, ADMIN],
  [/^post \/api\/admin\/ledger\/verify$/, ADMIN],
  [/^post \/api\/admin\/adjustments\/(approve|reject)$/, ADMIN],
  [/^\w+ \/api\/admin\/referral\/.*$/, ADMIN],
  [/^\w+ \/api\/admin\/news(\/.*)?$/, ADMIN],
  [/^\w+ \/api\/admin\/help\/(articles|save|delete)$/, ADMIN],
  [/^\w+ \/api\/admin\/support\/customer_url$/, ADMIN],
  [/^\w+ \/api\/admin\/support\/.*$/, SUPPORT],
  [/^get \/api\/admin\/help\/feedback$/, SUPPORT],
  [
    /^\w+ \/api\/admin\/(users(\/detail)?|balances|ledger|queues|dashboard|adjustments(\/request)?|upload\/\{name\}|(deposits|withdrawals|verifications|launchpad)(\/(approve|reject|pass))?)$/,
    REVIEW,
  ],
];

interface Route {
  key: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
}

let h: Harness;
let routes: Route[];
const tokens = {} as Record<OperatorRole | 'user', string>;

beforeAll(async () => {
  h = await startHarness();
  const doc = (
    h.app as unknown as { swagger(): { paths: Record<string, Record<string, unknown>> } }
  ).swagger();
  routes = Object.entries(doc.paths)
    .filter(([path]) => path.startsWith('/api/admin/'))
    .flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => ({
        key: `${m} ${path}`,
        method: m.toUpperCase() as Route['method'],
        url: path.replace(/\{\w+\}/g, 'x.png'),
      })),
    );
  for (const role of ['admin', 'reviewer', 'support'] as const)
    tokens[role] = (await operatorLogin(h, role)).token;
  tokens.user = (await registerByEmail(h)).token;
});
afterAll(() => h.close());

function rolesOf(key: string): OperatorRole[] | undefined {
  return RULES.find(([re]) => re.test(key))?.[1];
}

// logout ends the session it is sent with: probed last, on sessions of its own
const probe = (r: Route, token?: string) =>
  h.inject({
    method: r.method,
    url: r.url,
    headers: { lang: 'en', ...(token ? { authorization: token } : {}) },
  });

describe('the role of every operator route', () => {
  it('the route list holds the operator API, and the table names the roles of each route', () => {
    expect(routes.length).toBeGreaterThan(30);
    const unnamed = routes.filter((r) => !SIGN_IN.test(r.key) && !rolesOf(r.key)).map((r) => r.key);
    expect(unnamed, 'add these routes to RULES with the roles that may use them').toEqual([]);
  });

  it('without a token, and with a user token, every route but login answers 999', async () => {
    for (const r of routes) {
      if (r.key === 'post /api/admin/login') continue;
      for (const token of [undefined, tokens.user]) {
        const res = await probe(r, token);
        expect(res.statusCode, `${r.key} ${token ? 'user' : 'no token'}`).toBe(401);
        expect(res.json(), r.key).toMatchObject({ type: '999', code: 999 });
      }
    }
  });

  it('a role the route does not allow answers 403; an allowed role is let through', async () => {
    for (const r of routes) {
      const roles = rolesOf(r.key);
      if (!roles || SIGN_IN.test(r.key) || r.key.endsWith('/logout')) continue;
      for (const role of ['reviewer', 'support'] as const) {
        const res = await probe(r, tokens[role]);
        if (roles.includes(role)) {
          // past the guard: whatever the handler answers to an empty request, not 403 or 999
          expect([401, 403], `${r.key} as ${role}`).not.toContain(res.statusCode);
        } else {
          expect(res.statusCode, `${r.key} as ${role}`).toBe(403);
          expect(res.json(), r.key).toMatchObject({ type: 'error', code: 4003 });
        }
      }
    }
  });

  it('a ready session of any role may log out, and the token is then refused', async () => {
    for (const role of ANY) {
      const { token } = await operatorLogin(h, role);
      expect((await h.call('POST', 'admin/logout', {}, { token })).body.type, role).toBe('ok');
      expect((await h.call('GET', 'admin/me', undefined, { token })).status).toBe(401);
    }
  });
});
