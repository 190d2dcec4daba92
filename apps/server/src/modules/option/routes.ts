import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  AdminConfigPaths,
  ConfigOptionSeconds,
  ConfigOptionSecondsBody,
  Ok,
  OptionListQuery,
  OptionOrder,
  OptionOrderPage,
  OptionSeconds,
  OptionSecondsQuery,
  OptionSubmitBody,
  Paths,
  PayableCurrency,
} from '@verdant/api';
import type { FastifyInstance } from 'fastify';
import { optionalUser, requireUser, userId } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { CONFIG_ROLES, operatorOf, requireOperator } from '../admin/service.ts';
import { optionConfig } from './config.ts';

const tags = ['options'];
const secured = [{ session: [] }];

export default async function optionRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const option = app.option;
  const auth = requireUser(app);
  const operator = requireOperator(app, CONFIG_ROLES);
  const config = optionConfig(app.ctx, app.market);

  app.get(`/${AdminConfigPaths.optionSeconds}`, {
    preHandler: operator,
    schema: {
      tags: ['admin'],
      summary: 'Operators (admin): every delivery time of every market, on sale or not',
      security: [{ session: [] }],
      response: { 200: Ok(Type.Array(ConfigOptionSeconds)) },
    },
    handler: async (req) => ok(req, await config.list()),
  });

  app.post(`/${AdminConfigPaths.saveOptionSeconds}`, {
    preHandler: operator,
    schema: {
      tags: ['admin'],
      summary:
        'Operators (admin): add a delivery time or change one (orders bought keep their terms); audited',
      security: [{ session: [] }],
      body: ConfigOptionSecondsBody,
      response: { 200: Ok(ConfigOptionSeconds) },
    },
    handler: async (req) =>
      ok(req, await config.save(operatorOf(req), req.ip, req.body, req.lang), 'config.saved'),
  });

  app.get(`/${Paths.optionSeconds}`, {
    schema: {
      tags,
      summary:
        'Delivery times of a market (or of every market): profit ratio, fee on the profit, stake range',
      querystring: OptionSecondsQuery,
      response: { 200: Ok(Type.Array(OptionSeconds)) },
    },
    handler: async (req) => ok(req, await option.seconds(req.query)),
  });

  app.get(`/${Paths.optionCurrencies}`, {
    preHandler: optionalUser(app),
    schema: {
      tags,
      summary: 'Currencies a stake may be paid in, with your option account balance when logged in',
      response: { 200: Ok(Type.Array(PayableCurrency)) },
    },
    handler: async (req) => ok(req, await option.payableCurrencies(req.user?.id ?? null)),
  });

  app.post(`/${Paths.optionSubmit}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: 'Buy a timed option: bullish or bearish on a market, for a delivery time',
      description:
        'Priced by the latest recorded index tick; the stake is frozen in the option account until delivery, ' +
        'which settles against the first recorded tick at or after the delivery time.',
      security: secured,
      body: OptionSubmitBody,
      response: { 200: Ok(OptionOrder) },
    },
    handler: async (req) => ok(req, await option.submit(userId(req), req.body), 'option.submitted'),
  });

  app.get(`/${Paths.optionOrders}`, {
    preHandler: auth,
    schema: {
      tags,
      summary:
        'Your options waiting for delivery, or the delivery history, with their purchase and delivery ticks',
      security: secured,
      querystring: OptionListQuery,
      response: { 200: Ok(OptionOrderPage) },
    },
    handler: async (req) => ok(req, await option.list(userId(req), req.query)),
  });
}
