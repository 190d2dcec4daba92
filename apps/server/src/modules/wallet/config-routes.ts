import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  AdminConfigPaths,
  BankDetails,
  ConfigBankDetailsBody,
  ConfigCurrency,
  ConfigCurrencyBody,
  Ok,
} from '@verdant/api';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { CONFIG_ROLES, operatorOf, requireOperator } from '../admin/service.ts';
import { walletConfig } from './config.ts';

const tags = ['admin'];
const secured = [{ session: [] }];

/** Operators' configuration of currencies and of the platform's bank account (issue 23). */
export async function walletConfigRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const operator = requireOperator(app, CONFIG_ROLES);
  const config = walletConfig(app.ctx);

  app.get(`/${AdminConfigPaths.currencies}`, {
    preHandler: operator,
    schema: {
      tags,
      summary: 'Operators (admin): currencies with their minimums, fee and whether they can move',
      security: secured,
      response: { 200: Ok(Type.Array(ConfigCurrency)) },
    },
    handler: async (req) => ok(req, await config.currencies()),
  });

  app.post(`/${AdminConfigPaths.saveCurrency}`, {
    preHandler: operator,
    schema: {
      tags,
      summary:
        "Operators (admin): change a currency's minimums, withdrawal fee, deposits and withdrawals on/off; audited",
      security: secured,
      body: ConfigCurrencyBody,
      response: { 200: Ok(ConfigCurrency) },
    },
    handler: async (req) =>
      ok(req, await config.saveCurrency(operatorOf(req), req.ip, req.body, req.lang), 'config.saved'),
  });

  app.get(`/${AdminConfigPaths.bankDetails}`, {
    preHandler: operator,
    schema: {
      tags,
      summary: 'Operators (admin): the bank account bank deposits go to, as users see it',
      security: secured,
      response: { 200: Ok(BankDetails) },
    },
    handler: async (req) => ok(req, await config.bankDetails()),
  });

  app.post(`/${AdminConfigPaths.saveBankDetails}`, {
    preHandler: operator,
    schema: {
      tags,
      summary: 'Operators (admin): set the bank account bank deposits go to (replaces BANK_DETAILS); audited',
      security: secured,
      body: ConfigBankDetailsBody,
      response: { 200: Ok(BankDetails) },
    },
    handler: async (req) =>
      ok(req, await config.saveBankDetails(operatorOf(req), req.ip, req.body, req.lang), 'config.saved'),
  });
}
