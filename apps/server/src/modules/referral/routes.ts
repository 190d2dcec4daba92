import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  AdminReferralMember,
  AdminReferralMemberBody,
  AdminReferralMemberQuery,
  AdminReferralPaths,
  Ok,
  ReferralInvite,
  ReferralPageQuery,
  ReferralPaths,
  ReferralRanking,
  ReferralRebatePage,
  ReferralRefereePage,
  ReferralShare,
} from '@verdant/api';
import type { FastifyInstance } from 'fastify';
import { requireUser, userId } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { operatorOf, requireOperator } from '../admin/service.ts';
import type { ReferralService } from './service.ts';

const tags = ['referral'];
const secured = [{ session: [] }];

declare module 'fastify' {
  interface FastifyInstance {
    referral: ReferralService;
  }
}

export default async function referralRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const referral = app.referral;
  const auth = requireUser(app);
  const adminOnly = requireOperator(app, ['admin']);

  app.get(`/${ReferralPaths.invite}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: 'Your invitation code and link, referees, earnings, rebate rate and exclusive status',
      security: secured,
      response: { 200: Ok(ReferralInvite) },
    },
    handler: async (req) => ok(req, await referral.invite(userId(req))),
  });

  app.get(`/${ReferralPaths.myShare}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: 'What sharing sends: your code, the registration link and a line in your language',
      security: secured,
      response: { 200: Ok(ReferralShare) },
    },
    handler: async (req) => ok(req, await referral.share(userId(req), req.lang)),
  });

  app.get(`/${ReferralPaths.myPoster}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: 'Your invitation poster: an SVG picture with the link as a QR code and your code',
      description: 'Answers image/svg+xml (not the JSON envelope) when it succeeds.',
      security: secured,
      response: { 200: Type.String({ description: 'image/svg+xml' }) },
    },
    handler: async (req, reply) => {
      const svg = await referral.poster(userId(req), req.lang, `${req.protocol}://${req.host}`);
      return reply
        .type('image/svg+xml; charset=utf-8')
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', 'inline; filename="poster.svg"')
        .header('content-security-policy', "default-src 'none'; frame-ancestors 'none'; sandbox")
        .header('cache-control', 'private, no-store')
        .send(svg);
    },
  });

  // the spec's calls are POST unless stated; the screen reads them with GET, both answer
  for (const method of ['get', 'post'] as const)
    app[method](`/${ReferralPaths.inviteList}`, {
      schema: {
        tags,
        summary: 'The top 10 promoters by rebates received (valued in USDT), accounts masked',
        response: { 200: Ok(ReferralRanking) },
      },
      handler: async (req) => ok(req, await referral.ranking()),
    });

  for (const [path, summary, list] of [
    [ReferralPaths.myInviteList, 'Your referees, newest first, with what their fees earned you', 'referees'],
    [ReferralPaths.myAccountReturn, 'Your rebate records, newest first', 'rebates'],
  ] as const) {
    const base = {
      tags,
      summary,
      security: secured,
      response: { 200: Ok(list === 'referees' ? ReferralRefereePage : ReferralRebatePage) },
    };
    app.get(`/${path}`, {
      preHandler: auth,
      schema: { ...base, querystring: ReferralPageQuery },
      handler: async (req) => ok(req, await referral[list](userId(req), req.query)),
    });
    app.post(`/${path}`, {
      preHandler: auth,
      schema: { ...base, body: ReferralPageQuery },
      handler: async (req) => ok(req, await referral[list](userId(req), req.body ?? {})),
    });
  }

  app.get(`/${AdminReferralPaths.member}`, {
    preHandler: adminOnly,
    schema: {
      tags: ['admin'],
      summary: "A user's referral status: code, referrer, referees, exclusive status and rate, earnings",
      security: secured,
      querystring: AdminReferralMemberQuery,
      response: { 200: Ok(AdminReferralMember) },
    },
    handler: async (req) => ok(req, await referral.member(req.query.user_id)),
  });

  app.post(`/${AdminReferralPaths.member}`, {
    preHandler: adminOnly,
    schema: {
      tags: ['admin'],
      summary:
        'Make a user an exclusive member with its own rebate rate, or return it to the default (audited)',
      security: secured,
      body: AdminReferralMemberBody,
      response: { 200: Ok(AdminReferralMember) },
    },
    handler: async (req) => ok(req, await referral.setMember(operatorOf(req).id, req.ip, req.body)),
  });
}
