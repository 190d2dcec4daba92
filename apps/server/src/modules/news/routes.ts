import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  AdminNews,
  AdminNewsBody,
  AdminNewsIdBody,
  AdminNewsQuery,
  AdminPaths,
  Empty,
  LANGS,
  MessagePage,
  MessageReadBody,
  MessageUnread,
  NewsDetail,
  NewsDetailBody,
  NewsListBody,
  NewsPage,
  Ok,
  Paged,
  Paths,
} from '@verdant/api';
import type { FastifyInstance } from 'fastify';
import { optionalUser, requireUser, userId } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { operatorOf, requireOperator } from '../admin/service.ts';

const tags = ['news'];
// a notice's text keeps its paragraphs
const multilineFields = LANGS.map((l) => `body_${l}`);
const secured = [{ session: [] }];

export default async function newsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const news = app.news;
  const auth = requireUser(app);
  const maybeUser = optionalUser(app);
  // notices are what the platform says to everyone: written by admins only
  const operator = requireOperator(app, ['admin']);

  app.post(`/${Paths.newsList}`, {
    preHandler: maybeUser,
    schema: {
      tags,
      summary:
        "Published notices, newest first, in the request's language (else English); unread marks when logged in",
      body: Type.Optional(NewsListBody),
      response: { 200: Ok(NewsPage) },
    },
    handler: async (req) => ok(req, await news.list(req.user?.id ?? null, req.body ?? {}, req.lang)),
  });

  app.post(`/${Paths.newsDetail}`, {
    preHandler: maybeUser,
    schema: {
      tags,
      summary: 'One notice; opening it marks it read for a logged-in user',
      body: NewsDetailBody,
      response: { 200: Ok(NewsDetail) },
    },
    handler: async (req) => ok(req, await news.detail(req.user?.id ?? null, req.body.id, req.lang)),
  });

  app.post(`/${Paths.messages}`, {
    preHandler: auth,
    schema: {
      tags,
      summary:
        'Your personal messages (deposits, withdrawals, verification, options, contracts, subscriptions), newest first',
      security: secured,
      body: Type.Optional(NewsListBody),
      response: { 200: Ok(MessagePage) },
    },
    handler: async (req) => ok(req, await news.messages(userId(req), req.body ?? {}, req.lang)),
  });

  app.post(`/${Paths.messagesUnread}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: 'How many personal messages and notices you have not read',
      security: secured,
      response: { 200: Ok(MessageUnread) },
    },
    handler: async (req) => ok(req, await news.unread(userId(req))),
  });

  app.post(`/${Paths.messagesRead}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: 'Mark one message read (id) or all of them (id=all)',
      security: secured,
      body: MessageReadBody,
      response: { 200: Ok(Type.Object({ unread: Type.Integer() })) },
    },
    handler: async (req) => ok(req, await news.markRead(userId(req), req.body.id)),
  });

  app.get(`/${AdminPaths.news}`, {
    preHandler: operator,
    schema: {
      tags: ['admin'],
      summary: 'Notices, drafts and published, newest first, with every language written',
      security: secured,
      querystring: AdminNewsQuery,
      response: { 200: Ok(Paged(AdminNews)) },
    },
    handler: async (req) => ok(req, await news.adminList(req.query)),
  });

  app.post(`/${AdminPaths.newsCreate}`, {
    preHandler: operator,
    config: { multilineFields },
    schema: {
      tags: ['admin'],
      summary: 'Write a notice (a draft until published): title_<lang>/body_<lang>, English required',
      security: secured,
      body: AdminNewsBody,
      response: { 200: Ok(AdminNews) },
    },
    handler: async (req) => ok(req, await news.create(operatorOf(req).id, req.ip, req.body)),
  });

  app.post(`/${AdminPaths.newsEdit}`, {
    preHandler: operator,
    config: { multilineFields },
    schema: {
      tags: ['admin'],
      summary: 'Rewrite a notice (every language is replaced by the form)',
      security: secured,
      body: AdminNewsBody,
      response: { 200: Ok(AdminNews) },
    },
    handler: async (req) => ok(req, await news.edit(operatorOf(req).id, req.ip, req.body)),
  });

  for (const [path, published] of [
    [AdminPaths.newsPublish, true],
    [AdminPaths.newsUnpublish, false],
  ] as const)
    app.post(`/${path}`, {
      preHandler: operator,
      schema: {
        tags: ['admin'],
        summary: published ? 'Publish a notice (it goes to the top)' : 'Take a notice back to draft',
        security: secured,
        body: AdminNewsIdBody,
        response: { 200: Ok(AdminNews) },
      },
      handler: async (req) => ok(req, await news.publish(operatorOf(req).id, req.ip, req.body.id, published)),
    });

  app.post(`/${AdminPaths.newsDelete}`, {
    preHandler: operator,
    schema: {
      tags: ['admin'],
      summary: 'Delete a notice for good',
      security: secured,
      body: AdminNewsIdBody,
      response: { 200: Ok(Empty) },
    },
    handler: async (req) => {
      await news.remove(operatorOf(req).id, req.ip, req.body.id);
      return ok(req, null);
    },
  });
}
