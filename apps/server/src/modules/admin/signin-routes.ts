import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  AdminPasswordBody,
  AdminPaths,
  AdminQueues,
  CreateOperatorBody,
  DisableOperatorBody,
  Ok,
  OperatorAuthState,
  OperatorIdBody,
  OperatorRow,
  ResetOperatorPasswordBody,
  TotpCodeBody,
  TotpSetup,
} from '@verdant/api';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { limit } from '../../http/rate-limits.ts';
import { disableOperator, resetOperatorPassword, resetOperatorTotp } from './manage.ts';
import {
  createOperator,
  listOperators,
  operatorOf,
  REVIEWERS,
  requireOperator,
  requireSignInStep,
} from './operators.ts';
import { queueCounts } from './queues.ts';
import { changeOwnPassword, enableTotp, setupTotp, verifyTotp } from './signin.ts';

const secured = [{ session: [] }];
const tags = ['admin'];

/**
 * The sign-in steps after the password (forced change, TOTP enrolment or code), operator
 * management for admins, and the review queues' counts. Registered inside adminRoutes.
 */
export default async function signInRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.ctx;
  const adminOnly = requireOperator(app, ['admin']);
  // wrong codes count like wrong passwords: the login limits, keyed by the operator
  const codeLimit = limit(app, 'login');

  app.post(`/${AdminPaths.password}`, {
    // the forced change of the first login, or a ready operator changing theirs
    preHandler: [requireSignInStep(app, ['password', 'ready']), limit(app, 'passwordChecks')],
    schema: {
      tags,
      summary: "Change one's own password (the current one required); other sessions end",
      security: secured,
      body: AdminPasswordBody,
      response: { 200: Ok(OperatorAuthState) },
    },
    handler: async (req) =>
      ok(req, await changeOwnPassword(db, operatorOf(req), req.body, req.ip), 'admin.passwordChanged'),
  });

  app.post(`/${AdminPaths.totpSetup}`, {
    preHandler: requireSignInStep(app, ['totp_setup']),
    schema: {
      tags,
      summary: 'A new TOTP secret to enrol (QR code URI), until a code confirms it',
      security: secured,
      response: { 200: Ok(TotpSetup) },
    },
    handler: async (req) => ok(req, await setupTotp(db, operatorOf(req), req.ip)),
  });

  app.post(`/${AdminPaths.totpEnable}`, {
    preHandler: [requireSignInStep(app, ['totp_setup']), codeLimit],
    schema: {
      tags,
      summary: 'Confirm TOTP enrolment with a first code; the session becomes ready',
      security: secured,
      body: TotpCodeBody,
      response: { 200: Ok(OperatorAuthState) },
    },
    handler: async (req) =>
      ok(req, await enableTotp(db, operatorOf(req), req.body.code, req.ip), 'account.loginSuccess'),
  });

  app.post(`/${AdminPaths.totpVerify}`, {
    preHandler: [requireSignInStep(app, ['totp']), codeLimit],
    schema: {
      tags,
      summary: 'The second factor at login: a TOTP code, each usable once; the session becomes ready',
      security: secured,
      body: TotpCodeBody,
      response: { 200: Ok(OperatorAuthState) },
    },
    handler: async (req) =>
      ok(req, await verifyTotp(db, operatorOf(req), req.body.code, req.ip), 'account.loginSuccess'),
  });

  app.get(`/${AdminPaths.operators}`, {
    preHandler: adminOnly,
    schema: {
      tags,
      summary: 'Every operator, with role, state and whether TOTP is enrolled (admins only)',
      security: secured,
      response: { 200: Ok(Type.Array(OperatorRow)) },
    },
    handler: async (req) => ok(req, await listOperators(db)),
  });

  app.post(`/${AdminPaths.createOperator}`, {
    preHandler: adminOnly,
    schema: {
      tags,
      summary: 'Create an operator; the first password must be changed and TOTP enrolled at first login',
      security: secured,
      body: CreateOperatorBody,
      response: { 200: Ok(OperatorRow) },
    },
    handler: async (req) => {
      const by = operatorOf(req);
      const op = await createOperator(db, req.body, { operatorId: by.id, ip: req.ip });
      const row = (await listOperators(db)).find((o) => o.id === op.id)!;
      return ok(req, row, 'admin.operatorCreated');
    },
  });

  app.post(`/${AdminPaths.disableOperator}`, {
    preHandler: adminOnly,
    schema: {
      tags,
      summary: 'Disable (every session ends) or enable an operator',
      security: secured,
      body: DisableOperatorBody,
      response: { 200: Ok(OperatorRow) },
    },
    handler: async (req) =>
      ok(req, await disableOperator(db, operatorOf(req), req.ip, req.body), 'admin.saved'),
  });

  app.post(`/${AdminPaths.resetOperatorPassword}`, {
    preHandler: adminOnly,
    schema: {
      tags,
      summary: "Set a temporary password, changed at the operator's next login; sessions end",
      security: secured,
      body: ResetOperatorPasswordBody,
      response: { 200: Ok(OperatorRow) },
    },
    handler: async (req) =>
      ok(req, await resetOperatorPassword(db, operatorOf(req), req.ip, req.body), 'admin.saved'),
  });

  app.post(`/${AdminPaths.resetOperatorTotp}`, {
    preHandler: adminOnly,
    schema: {
      tags,
      summary: "Remove an operator's TOTP: enrolled again at the next login; sessions end",
      security: secured,
      body: OperatorIdBody,
      response: { 200: Ok(OperatorRow) },
    },
    handler: async (req) =>
      ok(req, await resetOperatorTotp(db, operatorOf(req), req.ip, req.body), 'admin.saved'),
  });

  app.get(`/${AdminPaths.queues}`, {
    preHandler: requireOperator(app, REVIEWERS),
    schema: {
      tags,
      summary: 'How many requests wait in each review queue',
      security: secured,
      response: { 200: Ok(AdminQueues) },
    },
    handler: async (req) => ok(req, await queueCounts(app)),
  });
}
