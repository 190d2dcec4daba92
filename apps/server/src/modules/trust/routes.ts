import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  ConfigTrustProduct,
  ConfigTrustProductBody,
  Ok,
  Paths,
  ProductConfigPaths,
  TrustBuyBody,
  TrustCancelBody,
  TrustConfig,
  TrustOrder,
  TrustOrderPage,
  TrustOrderQuery,
  TrustProductInfo,
  TrustProductQuery,
  TrustReport,
} from '@verdant/api';
import type { FastifyInstance } from 'fastify';
import { optionalUser, requireUser, userId } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { CONFIG_ROLES, operatorOf, requireOperator } from '../admin/service.ts';
import { trustConfig } from './config.ts';

const tags = ['trust'];
const secured = [{ session: [] }];

export default async function trustRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const trust = app.trust;
  const auth = requireUser(app);

  app.get(`/${Paths.trustReport}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: 'Your hosting: principal hosted now and income so far per currency, orders per tab',
      security: secured,
      response: { 200: Ok(TrustReport) },
    },
    handler: async (req) => ok(req, await trust.report(userId(req))),
  });

  app.get(`/${Paths.trustConfig}`, {
    schema: {
      tags,
      summary: 'Locked deposit products: term, minimum, daily and total yield, state, capacity, penalty rule',
      response: { 200: Ok(TrustConfig) },
    },
    handler: async (req) => ok(req, await trust.config(req.lang)),
  });

  app.get(`/${Paths.trustProduct}`, {
    preHandler: optionalUser(app),
    schema: {
      tags,
      summary: 'One product, with your trust account balance when logged in',
      querystring: TrustProductQuery,
      response: { 200: Ok(TrustProductInfo) },
    },
    handler: async (req) => ok(req, await trust.productInfo(req.user?.id ?? null, req.query.id, req.lang)),
  });

  app.post(`/${Paths.trustBuy}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: 'Buy a product: the principal is locked in your trust account for the term',
      description:
        'Interest is paid each day at the purchase time of day; the principal comes back at maturity. ' +
        'Amount not empty, at least the minimum, the service agreement ticked, balance sufficient.',
      security: secured,
      body: TrustBuyBody,
      response: { 200: Ok(TrustOrder) },
    },
    handler: async (req) => ok(req, await trust.buy(userId(req), req.body, req.lang), 'trust.bought'),
  });

  app.get(`/${Paths.trustOrders}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: 'Your orders by tab: hosting, completed, redeemed',
      security: secured,
      querystring: TrustOrderQuery,
      response: { 200: Ok(TrustOrderPage) },
    },
    handler: async (req) => ok(req, await trust.orders(userId(req), req.query, req.lang)),
  });

  app.post(`/${Paths.trustCancel}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: 'Redeem early: the principal comes back less the penalty the order shows',
      security: secured,
      body: TrustCancelBody,
      response: { 200: Ok(TrustOrder) },
    },
    handler: async (req) => ok(req, await trust.cancel(userId(req), req.body.id, req.lang), 'trust.redeemed'),
  });

  // operators (admin): the products as data, created and edited in the console
  const operator = requireOperator(app, CONFIG_ROLES);
  const config = trustConfig(app.ctx);
  app.get(`/${ProductConfigPaths.trustProducts}`, {
    preHandler: operator,
    schema: {
      tags: ['admin'],
      summary: 'Operators (admin): every deposit product, with what is sold and how many orders it has',
      security: secured,
      response: { 200: Ok(Type.Array(ConfigTrustProduct)) },
    },
    handler: async (req) => ok(req, await config.list()),
  });
  app.post(`/${ProductConfigPaths.saveTrustProduct}`, {
    preHandler: operator,
    schema: {
      tags: ['admin'],
      summary:
        'Operators (admin): create a deposit product (no id) or edit one (orders keep their terms); audited',
      security: secured,
      body: ConfigTrustProductBody,
      response: { 200: Ok(ConfigTrustProduct) },
    },
    handler: async (req) =>
      ok(req, await config.save(operatorOf(req), req.ip, req.body, req.lang), 'config.saved'),
  });
}
