import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Empty, Ok, Paths, RealName2Body, RealNameBody, VerificationStatus } from '@verdant/api';
import type { FastifyInstance } from 'fastify';
import { requireUser, userId } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { kycService } from './service.ts';

const secured = [{ session: [] }];

export default async function kycRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const kyc = kycService(app.ctx);
  const auth = requireUser(app);

  app.post(`/${Paths.realName}`, {
    preHandler: auth,
    schema: {
      tags: ['kyc'],
      summary: 'Basic identity verification: country, name, ID number (reviewed by an operator)',
      security: secured,
      body: RealNameBody,
      response: { 200: Ok(Empty) },
    },
    handler: async (req) => {
      await kyc.submitBasic(userId(req), req.body);
      return ok(req, null, 'kyc.submitted');
    },
  });

  app.post(`/${Paths.realNameAdvanced}`, {
    preHandler: auth,
    schema: {
      tags: ['kyc'],
      summary: 'Advanced identity verification: three private photos; basic verification first',
      security: secured,
      body: RealName2Body,
      response: { 200: Ok(Empty) },
    },
    handler: async (req) => {
      await kyc.submitAdvanced(userId(req), req.body);
      return ok(req, null, 'kyc.submitted');
    },
  });

  app.get(`/${Paths.verificationStatus}`, {
    preHandler: auth,
    schema: {
      tags: ['kyc'],
      summary: 'Both verification states, the latest submission of each and any reject reason',
      security: secured,
      response: { 200: Ok(VerificationStatus) },
    },
    handler: async (req) => ok(req, await kyc.status(userId(req), req.lang)),
  });
}
