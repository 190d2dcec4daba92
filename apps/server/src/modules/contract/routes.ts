import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  AdminConfigPaths,
  ConfigContract,
  ConfigContractBody,
  ContractCloseBody,
  ContractCloseResult,
  ContractDeal,
  ContractDealQuery,
  ContractIdBody,
  ContractListQuery,
  ContractPaths,
  ContractPosition,
  ContractPositionPage,
  ContractSetStopBody,
  ContractSubmitBody,
  Ok,
} from '@verdant/api';
import type { FastifyInstance } from 'fastify';
import { optionalUser, requireUser, userId } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { CONFIG_ROLES, operatorOf, requireOperator } from '../admin/service.ts';
import { contractConfig } from './config.ts';

const tags = ['contract'];
const secured = [{ session: [] }];

export default async function contractRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const contract = app.contract;
  const auth = requireUser(app);
  const maybe = optionalUser(app);
  const operator = requireOperator(app, CONFIG_ROLES);
  const config = contractConfig(app.ctx, app.market);

  app.get(`/${AdminConfigPaths.contracts}`, {
    preHandler: operator,
    schema: {
      tags: ['admin'],
      summary: 'Operators (admin): contract markets with lot value, multiples, fees and maintenance rate',
      security: secured,
      response: { 200: Ok(Type.Array(ConfigContract)) },
    },
    handler: async (req) => ok(req, await config.list()),
  });

  app.post(`/${AdminConfigPaths.saveContract}`, {
    preHandler: operator,
    schema: {
      tags: ['admin'],
      summary:
        'Operators (admin): change a contract market for new orders (open positions keep their terms); audited',
      security: secured,
      body: ConfigContractBody,
      response: { 200: Ok(ConfigContract) },
    },
    handler: async (req) =>
      ok(req, await config.save(operatorOf(req), req.ip, req.body, req.lang), 'config.saved'),
  });

  // spec §7: POST unless stated; the two reads answer GET as well
  for (const method of ['GET', 'POST'] as const) {
    const get = method === 'GET';
    app.route({
      method,
      url: `/${ContractPaths.deal}`,
      preHandler: maybe,
      schema: {
        tags,
        summary:
          'Contract markets: lot value, multiples, fee and maintenance rates, limits, the current index tick, and your contract balance',
        ...(get ? { querystring: ContractDealQuery } : { body: ContractDealQuery }),
        response: { 200: Ok(ContractDeal) },
      },
      handler: async (req) =>
        ok(req, await contract.deal(req.user?.id ?? null, (get ? req.query : req.body) as ContractDealQuery)),
    });
    app.route({
      method,
      url: `/${ContractPaths.myTrade}`,
      preHandler: auth,
      schema: {
        tags,
        summary:
          'Your positions by status (holding, pending, closed, cancelled), newest first, with P&L and history',
        security: secured,
        ...(get ? { querystring: ContractListQuery } : { body: ContractListQuery }),
        response: { 200: Ok(ContractPositionPage) },
      },
      handler: async (req) =>
        ok(req, await contract.list(userId(req), (get ? req.query : req.body) as ContractListQuery)),
    });
  }

  app.post(`/${ContractPaths.submit}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: 'Open a long or short position at the current index tick, or place a limit order',
      description:
        'Margin (price × lots × lot value ÷ multiple) and the opening fee are taken from the contract account. ' +
        'A limit order holds both until the index reaches its price, then opens there.',
      security: secured,
      body: ContractSubmitBody,
      response: { 200: Ok(ContractPosition) },
    },
    handler: async (req) => ok(req, await contract.submit(userId(req), req.body), 'contract.submitted'),
  });

  app.post(`/${ContractPaths.close}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: 'Close one holding position (id), or all of them (all=1), at the current index tick',
      description: 'Returns margin ± profit and loss less the closing fee; a loss never exceeds the margin.',
      security: secured,
      body: ContractCloseBody,
      response: { 200: Ok(ContractCloseResult) },
    },
    handler: async (req) => ok(req, await contract.close(userId(req), req.body), 'contract.closed'),
  });

  app.post(`/${ContractPaths.setStop}`, {
    preHandler: auth,
    schema: {
      tags,
      summary:
        'Set (both) or remove (both empty) the take-profit and stop-loss of a position or pending order',
      security: secured,
      body: ContractSetStopBody,
      response: { 200: Ok(ContractPosition) },
    },
    handler: async (req) => ok(req, await contract.setStop(userId(req), req.body), 'contract.stopsSet'),
  });

  app.post(`/${ContractPaths.cancel}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: 'Cancel a pending limit order; its margin and fee return to the contract account',
      security: secured,
      body: ContractIdBody,
      response: { 200: Ok(ContractPosition) },
    },
    handler: async (req) => ok(req, await contract.cancel(userId(req), req.body), 'contract.cancelled'),
  });
}
