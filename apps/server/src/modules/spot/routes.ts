import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  AdminConfigPaths,
  CancelOrderBody,
  ConfigMarketMaker,
  ConfigMarketMakerBody,
  Ok,
  OrderListQuery,
  Paths,
  PlaceOrderBody,
  SpotOrder,
  SpotOrderPage,
} from '@verdant/api';
import type { FastifyInstance } from 'fastify';
import { requireUser, userId } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { CONFIG_ROLES, operatorOf, requireOperator } from '../admin/service.ts';
import { makerConfig } from './maker-config.ts';

const tags = ['spot'];
const secured = [{ session: [] }];

export default async function spotRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const spot = app.spot;
  const auth = requireUser(app);
  const operator = requireOperator(app, CONFIG_ROLES);
  const maker = makerConfig(app.ctx);

  app.get(`/${AdminConfigPaths.marketMaker}`, {
    preHandler: operator,
    schema: {
      tags: ['admin'],
      summary: "Operators (admin): the house market maker's spread and quote size",
      security: secured,
      response: { 200: Ok(ConfigMarketMaker) },
    },
    handler: async (req) => ok(req, await maker.get()),
  });

  app.post(`/${AdminConfigPaths.saveMarketMaker}`, {
    preHandler: operator,
    schema: {
      tags: ['admin'],
      summary: "Operators (admin): set the house market maker's spread and quote size (next round); audited",
      security: secured,
      body: ConfigMarketMakerBody,
      response: { 200: Ok(ConfigMarketMaker) },
    },
    handler: async (req) =>
      ok(req, await maker.save(operatorOf(req), req.ip, req.body, req.lang), 'config.saved'),
  });

  app.post(`/${Paths.spotTrade}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: 'Place a spot order: limit or market, buy or sell',
      description:
        'Funds are frozen on placing (quote for buys, base for sells), settled on each fill and released when ' +
        'the order finishes. Answers the order as it stands once committed, with the fills it made.',
      security: secured,
      body: PlaceOrderBody,
      response: { 200: Ok(SpotOrder) },
    },
    handler: async (req) => ok(req, await spot.place(userId(req), req.body), 'spot.placed'),
  });

  app.put(`/${Paths.spotTrade}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: 'Cancel one of your open spot orders; what it still froze is released',
      security: secured,
      body: CancelOrderBody,
      response: { 200: Ok(SpotOrder) },
    },
    handler: async (req) => ok(req, await spot.cancel(userId(req), req.body), 'spot.cancelled'),
  });

  app.get(`/${Paths.spotOrders}`, {
    preHandler: auth,
    schema: {
      tags,
      summary:
        'Your spot orders by status (waiting, completed, cancelled), newest first, with fills and fees',
      security: secured,
      querystring: OrderListQuery,
      response: { 200: Ok(SpotOrderPage) },
    },
    handler: async (req) => ok(req, await spot.list(userId(req), req.query)),
  });
}
