import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  AdminLaunchpadOrder,
  AdminLaunchpadPassBody,
  AdminPaths,
  AdminRejectBody,
  ConfigLaunchpadProject,
  ConfigLaunchpadProjectBody,
  LaunchpadConfig,
  LaunchpadListQuery,
  LaunchpadOrder,
  LaunchpadOrderBody,
  LaunchpadOrderPage,
  LaunchpadOrderQuery,
  LaunchpadProject,
  LaunchpadProjectInfo,
  LaunchpadProjectQuery,
  LaunchpadRedeemBody,
  Ok,
  Paged,
  Paths,
  ProductConfigPaths,
} from '@verdant/api';
import type { FastifyInstance } from 'fastify';
import { optionalUser, requireUser, userId } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { CONFIG_ROLES, operatorOf, REVIEWERS, requireOperator } from '../admin/service.ts';
import { launchpadConfig } from './config.ts';

const tags = ['launchpad'];
const secured = [{ session: [] }];

export default async function launchpadRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const launchpad = app.launchpad;
  const auth = requireUser(app);
  const operator = requireOperator(app, REVIEWERS);

  app.get(`/${Paths.launchpadConfig}`, {
    schema: {
      tags,
      summary:
        'New-coin projects (in progress, launched, sold out) with issue price, times, supply and limits',
      querystring: LaunchpadListQuery,
      response: { 200: Ok(LaunchpadConfig) },
    },
    handler: async (req) => ok(req, await launchpad.config(req.query, req.lang)),
  });

  app.get(`/${Paths.launchpadRecommend}`, {
    schema: {
      tags,
      summary: 'Projects the platform recommends',
      response: { 200: Ok(Type.Array(LaunchpadProject)) },
    },
    handler: async (req) => ok(req, await launchpad.recommend(req.lang)),
  });

  app.get(`/${Paths.launchpadProject}`, {
    preHandler: optionalUser(app),
    schema: {
      tags,
      summary: 'One project, with your spot balance of the payment currency and what you subscribed',
      querystring: LaunchpadProjectQuery,
      response: { 200: Ok(LaunchpadProjectInfo) },
    },
    handler: async (req) =>
      ok(req, await launchpad.productInfo(req.user?.id ?? null, req.query.id, req.lang)),
  });

  app.post(`/${Paths.launchpadOrder}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: 'Subscribe: the amount in the payment currency is frozen in your spot account until allotment',
      security: secured,
      body: LaunchpadOrderBody,
      response: { 200: Ok(LaunchpadOrder) },
    },
    handler: async (req) =>
      ok(req, await launchpad.subscribe(userId(req), req.body, req.lang), 'launchpad.subscribed'),
  });

  app.get(`/${Paths.launchpadOrders}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: 'Your subscriptions: under review, passed (with allotment and return), rejected',
      security: secured,
      querystring: LaunchpadOrderQuery,
      response: { 200: Ok(LaunchpadOrderPage) },
    },
    handler: async (req) => ok(req, await launchpad.orders(userId(req), req.query, req.lang)),
  });

  app.post(`/${Paths.launchpadRedeem}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: 'Redeem allotted coins once launched and past the lock-up: they become available',
      security: secured,
      body: LaunchpadRedeemBody,
      response: { 200: Ok(LaunchpadOrder) },
    },
    handler: async (req) =>
      ok(req, await launchpad.redeem(userId(req), req.body.id, req.lang), 'launchpad.redeemed'),
  });

  app.get(`/${AdminPaths.launchpadOrders}`, {
    preHandler: operator,
    schema: {
      tags: ['admin'],
      summary: 'New-coin subscriptions by status (review first-in first-out by default)',
      security: secured,
      querystring: LaunchpadOrderQuery,
      response: { 200: Ok(Paged(AdminLaunchpadOrder)) },
    },
    handler: async (req) => ok(req, await launchpad.adminList(req.query)),
  });

  app.post(`/${AdminPaths.passLaunchpad}`, {
    preHandler: operator,
    schema: {
      tags: ['admin'],
      summary: 'Pass (allot) a subscription, whole or in part: coins credited locked, the rest refunded',
      security: secured,
      body: AdminLaunchpadPassBody,
      response: { 200: Ok(AdminLaunchpadOrder) },
    },
    handler: async (req) =>
      ok(req, await launchpad.pass(operatorOf(req).id, req.ip, req.body), 'admin.approved'),
  });

  app.post(`/${AdminPaths.rejectLaunchpad}`, {
    preHandler: operator,
    schema: {
      tags: ['admin'],
      summary: 'Reject a subscription with a reason: the payment comes back',
      security: secured,
      body: AdminRejectBody,
      response: { 200: Ok(AdminLaunchpadOrder) },
    },
    handler: async (req) =>
      ok(req, await launchpad.reject(operatorOf(req).id, req.ip, req.body), 'admin.rejected'),
  });

  // operators (admin): the projects as data, created and edited in the console
  const admin = requireOperator(app, CONFIG_ROLES);
  const config = launchpadConfig(app.ctx, () => launchpad.wake());
  app.get(`/${ProductConfigPaths.launchpadProjects}`, {
    preHandler: admin,
    schema: {
      tags: ['admin'],
      summary: 'Operators (admin): every new-coin project, with its subscriptions and whether it is listed',
      security: secured,
      response: { 200: Ok(Type.Array(ConfigLaunchpadProject)) },
    },
    handler: async (req) => ok(req, await config.list()),
  });
  app.post(`/${ProductConfigPaths.saveLaunchpadProject}`, {
    preHandler: admin,
    schema: {
      tags: ['admin'],
      summary:
        'Operators (admin): create a new-coin project (no id) or edit one (what users hold never changes); audited',
      security: secured,
      body: ConfigLaunchpadProjectBody,
      response: { 200: Ok(ConfigLaunchpadProject) },
    },
    handler: async (req) =>
      ok(req, await config.save(operatorOf(req), req.ip, req.body, req.lang), 'config.saved'),
  });
}
