import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  AddWithdrawAddressBody,
  CurrencyList,
  DeleteWithdrawAddressBody,
  DemoFundsInfo,
  DepositAddress,
  DepositAddressBody,
  DepositPage,
  DepositRecord,
  DepositRequestBody,
  Empty,
  LedgerFlowPage,
  LegalLogBody,
  Ok,
  Paths,
  TransferBody,
  TransferHistoryQuery,
  TransferPage,
  TransferRecord,
  WalletDetail,
  WalletDetailBody,
  WalletList,
  WalletPageQuery,
  WithdrawAddress,
  WithdrawAddressesBody,
  WithdrawAddressList,
  WithdrawalLogQuery,
  WithdrawalPage,
  WithdrawalRecord,
  WithdrawBody,
  WithdrawInfo,
  WithdrawInfoBody,
} from '@verdant/api';
import type { FastifyInstance } from 'fastify';
import { requireUser, userId } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { limit } from '../../http/rate-limits.ts';
import { walletConfigRoutes } from './config-routes.ts';
import { loadDepositKeys } from './keys.ts';
import { walletService } from './service.ts';

const secured = [{ session: [] }];

const tags = ['wallet'];

export default async function walletRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const keys = await loadDepositKeys(app.ctx.db, app.ctx.config, (msg) => app.log.warn(msg));
  const wallet = walletService(app.ctx, keys);
  const auth = requireUser(app);
  // operators: currencies and the platform's bank account (issue 23)
  await walletConfigRoutes(app);

  app.get(`/${Paths.currencies}`, {
    schema: {
      tags,
      summary: 'Currencies with their chains, decimals, minimums, fees and whether they can move',
      response: { 200: Ok(CurrencyList) },
    },
    handler: async (req) => ok(req, await wallet.currencyList()),
  });

  app.post(`/${Paths.walletList}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: 'The four accounts (spot, option, contract, trust) with every currency, valued in USDT',
      security: secured,
      response: { 200: Ok(WalletList) },
    },
    handler: async (req) => ok(req, await wallet.list(userId(req))),
  });

  app.post(`/${Paths.walletDetail}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: "One account's balance in one currency and its latest changes",
      security: secured,
      body: WalletDetailBody,
      response: { 200: Ok(WalletDetail) },
    },
    handler: async (req) => ok(req, await wallet.detail(userId(req), req.body, req.lang)),
  });

  app.post(`/${Paths.walletLegalLog}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: 'Account flows from the ledger, newest first, paged',
      security: secured,
      body: LegalLogBody,
      response: { 200: Ok(LedgerFlowPage) },
    },
    handler: async (req) => ok(req, await wallet.legalLog(userId(req), req.body, req.lang)),
  });

  app.post(`/${Paths.walletChange}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: "Transfer between the user's own accounts",
      security: secured,
      body: TransferBody,
      response: { 200: Ok(TransferRecord) },
    },
    handler: async (req) => ok(req, await wallet.transfer(userId(req), req.body), 'wallet.transferred'),
  });

  app.get(`/${Paths.walletTransfers}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: 'Transfer records, newest first, paged',
      security: secured,
      querystring: TransferHistoryQuery,
      response: { 200: Ok(TransferPage) },
    },
    handler: async (req) => ok(req, await wallet.transfers(userId(req), req.query)),
  });

  app.get(`/${Paths.demoFunds}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: 'Whether this user may take demo funds (only while the server has no real deposit keys)',
      security: secured,
      response: { 200: Ok(DemoFundsInfo) },
    },
    handler: async (req) => ok(req, await wallet.demoFundsInfo(userId(req))),
  });

  app.post(`/${Paths.demoFunds}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: 'Take the demo funds once (10,000 USDT to the spot account, marked demo in every record)',
      security: secured,
      response: { 200: Ok(DemoFundsInfo) },
    },
    handler: async (req) => ok(req, await wallet.takeDemoFunds(userId(req)), 'wallet.demoFundsCredited'),
  });

  app.post(`/${Paths.depositAddress}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: "The user's deposit address for a currency and chain, or the platform's bank details (Bank)",
      security: secured,
      body: DepositAddressBody,
      response: { 200: Ok(DepositAddress) },
    },
    handler: async (req) => ok(req, await wallet.depositAddress(userId(req), req.body)),
  });

  app.post(`/${Paths.depositRequest}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: 'Report a deposit with its proof picture; credited to spot after review',
      security: secured,
      body: DepositRequestBody,
      response: { 200: Ok(DepositRecord) },
    },
    handler: async (req) =>
      ok(req, await wallet.requestDeposit(userId(req), req.body, req.lang), 'wallet.depositSubmitted'),
  });

  app.get(`/${Paths.depositLog}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: 'Deposit records: under review, passed or rejected',
      security: secured,
      querystring: WalletPageQuery,
      response: { 200: Ok(DepositPage) },
    },
    handler: async (req) => ok(req, await wallet.deposits(userId(req), req.query, req.lang)),
  });

  app.post(`/${Paths.withdrawAddresses}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: "The user's withdraw addresses (optionally of one currency)",
      security: secured,
      body: WithdrawAddressesBody,
      response: { 200: Ok(WithdrawAddressList) },
    },
    handler: async (req) => ok(req, await wallet.withdrawAddresses(userId(req), req.body?.currency_id)),
  });

  app.post(`/${Paths.addWithdrawAddress}`, {
    preHandler: [auth, limit(app, 'passwordChecks')],
    schema: {
      tags,
      summary: 'Add a withdraw address (checked for its chain) with the fund password and a code',
      security: secured,
      body: AddWithdrawAddressBody,
      response: { 200: Ok(WithdrawAddress) },
    },
    handler: async (req) =>
      ok(req, await wallet.addWithdrawAddress(userId(req), req.body), 'wallet.addressSaved'),
  });

  app.post(`/${Paths.deleteWithdrawAddress}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: 'Delete one of the user’s withdraw addresses',
      security: secured,
      body: DeleteWithdrawAddressBody,
      response: { 200: Ok(Empty) },
    },
    handler: async (req) => {
      await wallet.deleteWithdrawAddress(userId(req), req.body.id);
      return ok(req, null, 'wallet.addressDeleted');
    },
  });

  app.post(`/${Paths.withdrawInfo}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: 'What the withdraw screen needs: balance, minimum, fee, requests left today, checks',
      security: secured,
      body: WithdrawInfoBody,
      response: { 200: Ok(WithdrawInfo) },
    },
    handler: async (req) => ok(req, await wallet.withdrawInfo(userId(req), req.body, req.lang)),
  });

  app.post(`/${Paths.withdraw}`, {
    preHandler: [auth, limit(app, 'passwordChecks')],
    schema: {
      tags,
      summary: 'Request a withdrawal: amount + fee is frozen until an operator pays or rejects it',
      security: secured,
      body: WithdrawBody,
      response: { 200: Ok(WithdrawalRecord) },
    },
    handler: async (req) =>
      ok(req, await wallet.withdraw(userId(req), req.body, req.lang), 'wallet.withdrawSubmitted'),
  });

  app.get(`/${Paths.withdrawLog}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: 'Withdrawal records: under review, passed or rejected, with fee and transaction reference',
      security: secured,
      querystring: WithdrawalLogQuery,
      response: { 200: Ok(WithdrawalPage) },
    },
    handler: async (req) => ok(req, await wallet.withdrawals(userId(req), req.query, req.lang)),
  });
}
