import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  AdminApproveDepositBody,
  AdminApproveWithdrawalBody,
  AdminAuditQuery,
  AdminBalance,
  AdminDeposit,
  AdminIdBody,
  AdminLedgerEntry,
  AdminLedgerQuery,
  AdminLoginBody,
  AdminLoginResult,
  AdminPaths,
  AdminRejectBody,
  AdminStatusQuery,
  AdminUser,
  AdminUserIdQuery,
  AdminUsersQuery,
  AdminVerification,
  AdminVerificationsQuery,
  AdminWithdrawal,
  AuditEntry,
  Empty,
  Ok,
  Operator,
  Paged,
} from '@verdant/api';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { limit } from '../../http/rate-limits.ts';
import { sendPicture, uploadsService } from '../uploads/service.ts';
import {
  loginOperator,
  logoutOperator,
  operatorOf,
  REVIEWERS,
  requireOperator,
  toOperator,
} from './operators.ts';
import { adminService } from './service.ts';
import signInRoutes from './signin-routes.ts';
import adminUsersRoutes from './users-routes.ts';

const secured = [{ session: [] }];
const tags = ['admin'];

/**
 * The operator API under /api/admin: operators only (a user's token answers 999); reviewers
 * list and review, admins also read the audit log. Every change is audited in its transaction.
 */
export default async function adminRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.decorateRequest('operator', null);
  const admin = adminService(app.ctx);
  const uploads = uploadsService(app.ctx);
  const anyOperator = requireOperator(app);
  const operator = requireOperator(app, REVIEWERS);
  const adminOnly = requireOperator(app, ['admin']);
  await app.register(signInRoutes);
  await app.register(adminUsersRoutes);

  app.post(`/${AdminPaths.login}`, {
    // the user login's limits, keyed by the operator's username: per address and username, per
    // username across addresses, and a ceiling per address
    preHandler: limit(app, 'login'),
    schema: {
      tags,
      summary: 'Operator login: username and password give a token for /api/admin/*',
      body: AdminLoginBody,
      response: { 200: Ok(AdminLoginResult) },
    },
    handler: async (req) => ok(req, await loginOperator(app.ctx.db, req.body, req), 'account.loginSuccess'),
  });

  app.post(`/${AdminPaths.logout}`, {
    preHandler: anyOperator,
    schema: { tags, summary: 'End this operator session', security: secured, response: { 200: Ok(Empty) } },
    handler: async (req) => {
      await logoutOperator(app.ctx.db, operatorOf(req), req.ip);
      return ok(req, null, 'account.loggedOut');
    },
  });

  app.get(`/${AdminPaths.me}`, {
    preHandler: anyOperator,
    schema: { tags, summary: 'The logged-in operator', security: secured, response: { 200: Ok(Operator) } },
    handler: async (req) => ok(req, toOperator(operatorOf(req))),
  });

  app.get(`/${AdminPaths.users}`, {
    preHandler: operator,
    schema: {
      tags,
      summary: 'Users, newest first; q searches e-mail, phone, nickname or id',
      security: secured,
      querystring: AdminUsersQuery,
      response: { 200: Ok(Paged(AdminUser)) },
    },
    handler: async (req) => ok(req, await admin.users(req.query)),
  });

  app.get(`/${AdminPaths.balances}`, {
    preHandler: operator,
    schema: {
      tags,
      summary: "A user's balances per account type and currency",
      security: secured,
      querystring: AdminUserIdQuery,
      response: { 200: Ok(Type.Array(AdminBalance)) },
    },
    handler: async (req) => ok(req, await admin.balances(req.query.user_id)),
  });

  app.get(`/${AdminPaths.ledgerEntries}`, {
    preHandler: operator,
    schema: {
      tags,
      summary: "A user's ledger entries, newest first, with each journal's reason and reference",
      security: secured,
      querystring: AdminLedgerQuery,
      response: { 200: Ok(Paged(AdminLedgerEntry)) },
    },
    handler: async (req) => ok(req, await admin.ledger(req.query)),
  });

  app.get(`/${AdminPaths.deposits}`, {
    preHandler: operator,
    schema: {
      tags,
      summary: 'Deposit requests by status (pending first-in first-out by default)',
      security: secured,
      querystring: AdminStatusQuery,
      response: { 200: Ok(Paged(AdminDeposit)) },
    },
    handler: async (req) => ok(req, await admin.deposits(req.query)),
  });

  app.post(`/${AdminPaths.approveDeposit}`, {
    preHandler: operator,
    schema: {
      tags,
      summary:
        "Approve a pending deposit: the user's spot account is credited (the declared amount, or `amount`)",
      security: secured,
      body: AdminApproveDepositBody,
      response: { 200: Ok(AdminDeposit) },
    },
    handler: async (req) =>
      ok(
        req,
        await admin.reviewMoney('deposit', 'approve', operatorOf(req), req.ip, req.body),
        'admin.approved',
      ),
  });

  app.post(`/${AdminPaths.rejectDeposit}`, {
    preHandler: operator,
    schema: {
      tags,
      summary: 'Reject a pending deposit with a reason shown to the user',
      security: secured,
      body: AdminRejectBody,
      response: { 200: Ok(AdminDeposit) },
    },
    handler: async (req) =>
      ok(
        req,
        await admin.reviewMoney('deposit', 'reject', operatorOf(req), req.ip, req.body),
        'admin.rejected',
      ),
  });

  app.get(`/${AdminPaths.withdrawals}`, {
    preHandler: operator,
    schema: {
      tags,
      summary: 'Withdrawal requests by status (pending first-in first-out by default)',
      security: secured,
      querystring: AdminStatusQuery,
      response: { 200: Ok(Paged(AdminWithdrawal)) },
    },
    handler: async (req) => ok(req, await admin.withdrawals(req.query)),
  });

  app.post(`/${AdminPaths.approveWithdrawal}`, {
    preHandler: operator,
    schema: {
      tags,
      summary: 'Approve a pending withdrawal once paid out, with the payout reference',
      security: secured,
      body: AdminApproveWithdrawalBody,
      response: { 200: Ok(AdminWithdrawal) },
    },
    handler: async (req) =>
      ok(
        req,
        await admin.reviewMoney('withdrawal', 'approve', operatorOf(req), req.ip, req.body),
        'admin.approved',
      ),
  });

  app.post(`/${AdminPaths.rejectWithdrawal}`, {
    preHandler: operator,
    schema: {
      tags,
      summary: 'Reject a pending withdrawal: the frozen amount returns to the user',
      security: secured,
      body: AdminRejectBody,
      response: { 200: Ok(AdminWithdrawal) },
    },
    handler: async (req) =>
      ok(
        req,
        await admin.reviewMoney('withdrawal', 'reject', operatorOf(req), req.ip, req.body),
        'admin.rejected',
      ),
  });

  app.get(`/${AdminPaths.verifications}`, {
    preHandler: operator,
    schema: {
      tags,
      summary: 'Identity verifications by status and level (pending first-in first-out by default)',
      security: secured,
      querystring: AdminVerificationsQuery,
      response: { 200: Ok(Paged(AdminVerification)) },
    },
    handler: async (req) => ok(req, await admin.verifications(req.query, req.lang)),
  });

  app.post(`/${AdminPaths.approveVerification}`, {
    preHandler: operator,
    schema: {
      tags,
      summary: "Approve a pending verification: the user's basic or advanced state becomes verified",
      security: secured,
      body: AdminIdBody,
      response: { 200: Ok(AdminVerification) },
    },
    handler: async (req) =>
      ok(
        req,
        await admin.reviewVerification('verified', operatorOf(req), req.ip, req.body, req.lang),
        'admin.approved',
      ),
  });

  app.post(`/${AdminPaths.rejectVerification}`, {
    preHandler: operator,
    schema: {
      tags,
      summary: 'Reject a pending verification with a reason; the user may submit again',
      security: secured,
      body: AdminRejectBody,
      response: { 200: Ok(AdminVerification) },
    },
    handler: async (req) =>
      ok(
        req,
        await admin.reviewVerification('rejected', operatorOf(req), req.ip, req.body, req.lang),
        'admin.rejected',
      ),
  });

  app.get(`/${AdminPaths.upload}/:name`, {
    preHandler: operator,
    schema: {
      tags,
      summary: "Any user's upload (payment vouchers, identity photos), for review",
      security: secured,
      params: Type.Object({ name: Type.String({ maxLength: 64 }) }),
    },
    handler: async (req, reply) => {
      const file = await uploads.readAny(req.params.name);
      return sendPicture(reply, file, 'private, no-store');
    },
  });

  app.get(`/${AdminPaths.audit}`, {
    preHandler: adminOnly,
    schema: {
      tags,
      summary: 'The audit log, newest first (admins only)',
      security: secured,
      querystring: AdminAuditQuery,
      response: { 200: Ok(Paged(AuditEntry)) },
    },
    handler: async (req) => ok(req, await admin.audit(req.query)),
  });
}
