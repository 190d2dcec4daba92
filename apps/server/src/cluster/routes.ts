import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Ok } from '@verdant/api';
import type { FastifyInstance } from 'fastify';
import { ok } from '../http/envelope.ts';
import { requireOperator } from '../modules/admin/operators.ts';
import type { MarketOwner } from './spot.ts';

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

const ClusterState = Type.Object({
  node: Type.String({ description: 'The process that answered: host:port/pid/random' }),
  clustered: Type.Boolean({ description: 'Whether REDIS_URL is set (several processes)' }),
  markets: Type.Array(
    Type.Object({
      market: Type.String(),
      node: Nullable(
        Type.String({ description: 'The process that owns its book now; null while nobody does' }),
      ),
      token: Nullable(Type.String({ description: 'Its writer token, raised at each takeover' })),
      since: Nullable(Type.String({ description: 'When that process took it' })),
    }),
  ),
  jobs: Type.Array(Type.Object({ name: Type.String(), node: Nullable(Type.String()) })),
});

/**
 * `GET /api/admin/cluster` (operators): which process owns each market's book and runs each
 * singleton job, as the database's locks say now (docs/operations.md).
 */
export function clusterRoutes(state: {
  node: string;
  clustered: boolean;
  markets(): Promise<MarketOwner[]>;
}) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.decorateRequest('operator', null);
    app.get('/admin/cluster', {
      preHandler: requireOperator(app, ['admin']),
      schema: {
        tags: ['admin'],
        summary: 'Which process owns each market and runs each singleton job',
        security: [{ session: [] }],
        response: { 200: Ok(ClusterState) },
      },
      handler: async (req) => {
        const [markets, jobs] = await Promise.all([state.markets(), app.ctx.jobs.owners()]);
        return ok(req, {
          node: state.node,
          clustered: state.clustered,
          markets,
          jobs: jobs.filter((j) => !j.name.startsWith('spot:')),
        });
      },
    });
  };
}
