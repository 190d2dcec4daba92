import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  AdminAdjustment,
  AdminAdjustmentBody,
  AdminAdjustmentReviewBody,
  AdminDashboard,
  AdminFreezeBody,
  AdminPaths,
  AdminStatusQuery,
  AdminUserDetail,
  AdminUserIdQuery,
  LedgerCheck,
  Ok,
  Paged,
} from '@verdant/api';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { operatorOf, REVIEWERS, requireOperator } from './operators.ts';
import { adminService } from './service.ts';

const secured = [{ session: [] }];
const tags = ['admin'];

/**
 * The console's users, dashboard and balance adjustments (issue 23), registered inside the
 * operator routes. Reviewers read users and the dashboard; freezing, the ledger check and
 * adjustments are for admins (a reviewer may ask for an adjustment, an admin decides).
 */
export default async function adminUsersRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const admin = adminService(app.ctx);
  const reviewers = requireOperator(app, REVIEWERS);
  const adminOnly = requireOperator(app, ['admin']);

  app.get(`/${AdminPaths.userDetail}`, {
    preHandler: reviewers,
    schema: {
      tags,
      summary:
        'One user: profile, controls, balances, orders, positions, options, deposit products, referrals',
      security: secured,
      querystring: AdminUserIdQuery,
      response: { 200: Ok(AdminUserDetail) },
    },
    handler: async (req) => ok(req, await admin.userDetail(req.query.user_id)),
  });

  for (const [path, frozen] of [
    [AdminPaths.userFreeze, true],
    [AdminPaths.userUnfreeze, false],
  ] as const) {
    app.post(`/${path}`, {
      preHandler: adminOnly,
      schema: {
        tags,
        summary: frozen
          ? "Freeze a user's login (live sessions end) or withdrawals, with a reason"
          : "Unfreeze a user's login or withdrawals, with a reason",
        security: secured,
        body: AdminFreezeBody,
        response: { 200: Ok(AdminUserDetail) },
      },
      handler: async (req) =>
        ok(
          req,
          await admin.freeze(frozen, operatorOf(req), req.ip, req.body),
          frozen ? 'admin.frozen' : 'admin.unfrozen',
        ),
    });
  }

  app.get(`/${AdminPaths.dashboard}`, {
    preHandler: reviewers,
    schema: {
      tags,
      summary: 'Users, money requests, 24 h spot volumes, open interest, pool results',
      security: secured,
      response: { 200: Ok(AdminDashboard) },
    },
    handler: async (req) => ok(req, await admin.dashboard()),
  });

  app.post(`/${AdminPaths.ledgerCheck}`, {
    preHandler: adminOnly,
    schema: {
      tags,
      summary: 'Run the ledger verification (every balance from its entries, every currency sums to zero)',
      security: secured,
      response: { 200: Ok(LedgerCheck) },
    },
    handler: async (req) => ok(req, await admin.ledgerCheck()),
  });

  app.get(`/${AdminPaths.adjustments}`, {
    preHandler: reviewers,
    schema: {
      tags,
      summary: 'Balance adjustments by status (pending first-in first-out by default)',
      security: secured,
      querystring: AdminStatusQuery,
      response: { 200: Ok(Paged(AdminAdjustment)) },
    },
    handler: async (req) => ok(req, await admin.adjustments.list(req.query)),
  });

  app.post(`/${AdminPaths.adjustmentRequest}`, {
    preHandler: reviewers,
    schema: {
      tags,
      summary: 'Ask for a balance adjustment; nothing moves until another admin approves it',
      security: secured,
      body: AdminAdjustmentBody,
      response: { 200: Ok(AdminAdjustment) },
    },
    handler: async (req) =>
      ok(
        req,
        await admin.adjustments.request(operatorOf(req), req.ip, req.body),
        'admin.adjustmentRequested',
      ),
  });

  for (const decision of ['approve', 'reject'] as const) {
    app.post(`/${decision === 'approve' ? AdminPaths.adjustmentApprove : AdminPaths.adjustmentReject}`, {
      preHandler: adminOnly,
      schema: {
        tags,
        summary:
          decision === 'approve'
            ? 'Approve an adjustment another operator asked for: the ledger entry is posted'
            : 'Reject an adjustment with a note',
        security: secured,
        body: AdminAdjustmentReviewBody,
        response: { 200: Ok(AdminAdjustment) },
      },
      handler: async (req) =>
        ok(
          req,
          await admin.adjustments.review(decision, operatorOf(req), req.ip, req.body),
          decision === 'approve' ? 'admin.approved' : 'admin.rejected',
        ),
    });
  }
}
