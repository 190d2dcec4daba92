import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  AdminArticle,
  AdminArticleBody,
  AdminArticleIdBody,
  AdminConversation,
  AdminConversationBody,
  AdminConversationsQuery,
  AdminFeedback,
  AdminReplyBody,
  AdminSupportContext,
  AdminSupportHistoryQuery,
  AdminSupportPaths,
  CustomerUrlBody,
  CustomerUrlSetting,
  Empty,
  Feedback,
  FeedbackBody,
  HelpArticle,
  HelpArticleQuery,
  HelpArticlesQuery,
  Ok,
  Paged,
  SupportHistory,
  SupportHistoryQuery,
  SupportMessage,
  SupportPaths,
  SupportReadBody,
  SupportSendBody,
  SupportUnread,
  UploadResult,
} from '@verdant/api';
import type { FastifyInstance } from 'fastify';
import { requireUser, userId } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { operatorOf, requireOperator } from '../admin/service.ts';
import { readPicture, sendPicture } from '../uploads/service.ts';
import { SUPPORT_ROLES, supportService } from './service.ts';
import { attachSupportSockets } from './sockets.ts';

const tags = ['help'];
const adminTags = ['admin'];
const secured = [{ session: [] }];

const PictureBody = {
  type: 'object',
  nullable: true,
  required: ['file'],
  properties: { file: { type: 'string', format: 'binary', description: 'A JPEG, PNG or WebP picture' } },
};

export default async function supportRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const support = supportService(app.ctx, app.io);
  const auth = requireUser(app);
  const supportOp = requireOperator(app, SUPPORT_ROLES);
  const adminOnly = requireOperator(app, ['admin']);
  attachSupportSockets(app, support);
  app.addHook('onReady', () => support.seed());

  app.get(`/${SupportPaths.articles}`, {
    schema: {
      tags,
      summary: 'Common questions in your language (English when one has none), by category; q searches',
      querystring: HelpArticlesQuery,
      response: { 200: Ok(Type.Array(HelpArticle)) },
    },
    handler: async (req) => ok(req, await support.articles(req.lang, req.query)),
  });

  app.get(`/${SupportPaths.article}`, {
    schema: {
      tags,
      summary: 'One common question by id or slug (e.g. pricing)',
      querystring: HelpArticleQuery,
      response: { 200: Ok(HelpArticle) },
    },
    handler: async (req) => ok(req, await support.article(req.lang, req.query.id)),
  });

  app.post(`/${SupportPaths.feedback}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: 'Send feedback: text and up to three pictures (upload them first)',
      security: secured,
      body: FeedbackBody,
      response: { 200: Ok(Feedback) },
    },
    handler: async (req) => ok(req, await support.feedback(userId(req), req.body), 'support.feedbackSent'),
  });

  app.get(`/${SupportPaths.messages}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: 'Your chat with support, newest first, a page older than `before` at a time',
      security: secured,
      querystring: SupportHistoryQuery,
      response: { 200: Ok(SupportHistory) },
    },
    handler: async (req) => ok(req, await support.history(userId(req), req.query)),
  });

  app.post(`/${SupportPaths.send}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: 'Write to support (text or a picture); the socket event support:send does the same',
      security: secured,
      body: SupportSendBody,
      response: { 200: Ok(SupportMessage) },
    },
    handler: async (req) => ok(req, await support.send(userId(req), req.body)),
  });

  app.post(`/${SupportPaths.read}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: "Mark support's messages read up to an id (all when empty)",
      security: secured,
      body: SupportReadBody,
      response: { 200: Ok(SupportUnread) },
    },
    handler: async (req) => ok(req, { unread: await support.read(userId(req), req.body.up_to) }),
  });

  app.get(`/${SupportPaths.unread}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: "Support's messages you have not read",
      security: secured,
      response: { 200: Ok(SupportUnread) },
    },
    handler: async (req) => ok(req, { unread: await support.unread(userId(req)) }),
  });

  // ---- operators: the support inbox --------------------------------------------------------

  app.get(`/${AdminSupportPaths.conversations}`, {
    preHandler: supportOp,
    schema: {
      tags: adminTags,
      summary: 'Chats by latest message, with the messages support has not read',
      security: secured,
      querystring: AdminConversationsQuery,
      response: { 200: Ok(Paged(AdminConversation)) },
    },
    handler: async (req) => ok(req, await support.conversations(req.query, operatorOf(req))),
  });

  app.get(`/${AdminSupportPaths.messages}`, {
    preHandler: supportOp,
    schema: {
      tags: adminTags,
      summary: "One chat's messages, newest first, a page older than `before` at a time",
      security: secured,
      querystring: AdminSupportHistoryQuery,
      response: { 200: Ok(SupportHistory) },
    },
    handler: async (req) => ok(req, await support.adminHistory(req.query)),
  });

  app.post(`/${AdminSupportPaths.reply}`, {
    preHandler: supportOp,
    schema: {
      tags: adminTags,
      summary: 'Answer a chat with text and/or a picture (stored by admin/support/upload)',
      security: secured,
      body: Type.Intersect([
        AdminReplyBody,
        Type.Object({ picture: Type.Optional(Type.String({ maxLength: 64 })) }),
      ]),
      response: { 200: Ok(SupportMessage) },
    },
    handler: async (req) => ok(req, await support.reply(operatorOf(req), req.ip, req.body)),
  });

  app.post(`/${AdminSupportPaths.upload}`, {
    preHandler: supportOp,
    schema: {
      tags: adminTags,
      summary: 'Store a picture for a reply (multipart field "file"; ?conversation_id)',
      security: secured,
      consumes: ['multipart/form-data'],
      querystring: Type.Object({ conversation_id: Type.Optional(Type.String({ maxLength: 9 })) }),
      body: { content: { 'multipart/form-data': { schema: PictureBody } } },
      response: { 200: Ok(UploadResult) },
    },
    handler: async (req) => {
      const bytes = await readPicture(req);
      const saved = await support.upload((req.query as { conversation_id?: string }).conversation_id, bytes);
      return ok(req, { ...saved, url: `/api/${AdminSupportPaths.picture}/${saved.name}` }, 'common.uploaded');
    },
  });

  app.get(`/${AdminSupportPaths.picture}/:name`, {
    preHandler: supportOp,
    schema: {
      tags: adminTags,
      summary: 'A picture of a chat or a feedback',
      security: secured,
      params: Type.Object({ name: Type.String({ maxLength: 64 }) }),
    },
    handler: async (req, reply) =>
      sendPicture(reply, await support.picture(req.params.name), 'private, no-store'),
  });

  app.post(`/${AdminSupportPaths.read}`, {
    preHandler: supportOp,
    schema: {
      tags: adminTags,
      summary: "Mark a chat's messages read up to an id (all when empty)",
      security: secured,
      body: AdminConversationBody,
      response: { 200: Ok(SupportUnread) },
    },
    handler: async (req) => ok(req, { unread: await support.adminRead(req.body) }),
  });

  app.post(`/${AdminSupportPaths.assign}`, {
    preHandler: supportOp,
    schema: {
      tags: adminTags,
      summary: 'Assign a chat to a support operator (yourself when operator_id is empty)',
      security: secured,
      body: AdminConversationBody,
      response: {
        200: Ok(
          Type.Object({
            conversation_id: Type.Integer(),
            assigned_to: Type.Integer(),
            assigned_username: Type.String(),
          }),
        ),
      },
    },
    handler: async (req) =>
      ok(req, await support.assign(operatorOf(req), req.ip, req.body), 'support.assigned'),
  });

  app.post(`/${AdminSupportPaths.close}`, {
    preHandler: supportOp,
    schema: {
      tags: adminTags,
      summary: 'Close a chat (the user writing again opens it again)',
      security: secured,
      body: AdminConversationBody,
      response: { 200: Ok(Type.Object({ conversation_id: Type.Integer(), status: Type.String() })) },
    },
    handler: async (req) => ok(req, await support.close(operatorOf(req), req.ip, req.body), 'support.closed'),
  });

  app.get(`/${AdminSupportPaths.context}`, {
    preHandler: supportOp,
    schema: {
      tags: adminTags,
      summary: "The chat's user: account, verification and balances",
      security: secured,
      querystring: Type.Object({ conversation_id: Type.Optional(Type.String({ maxLength: 9 })) }),
      response: { 200: Ok(AdminSupportContext) },
    },
    handler: async (req) => ok(req, await support.context(req.query.conversation_id)),
  });

  app.get(`/${AdminSupportPaths.operators}`, {
    preHandler: supportOp,
    schema: {
      tags: adminTags,
      summary: 'Operators a chat can be assigned to',
      security: secured,
      response: {
        200: Ok(
          Type.Array(Type.Object({ id: Type.Integer(), username: Type.String(), role: Type.String() })),
        ),
      },
    },
    handler: async (req) => ok(req, await support.supportOperators()),
  });

  app.get(`/${AdminSupportPaths.feedback}`, {
    preHandler: supportOp,
    schema: {
      tags: adminTags,
      summary: 'Feedback from users, newest first',
      security: secured,
      querystring: Type.Object({
        page: Type.Optional(Type.String({ maxLength: 9 })),
        limit: Type.Optional(Type.String({ maxLength: 3 })),
      }),
      response: { 200: Ok(Paged(AdminFeedback)) },
    },
    handler: async (req) => ok(req, await support.feedbackList(req.query)),
  });

  // ---- operators: articles and the customer-service address (admin) --------------------------

  app.get(`/${AdminSupportPaths.articles}`, {
    preHandler: adminOnly,
    schema: {
      tags: adminTags,
      summary: 'Every help article with all its languages, drafts included',
      security: secured,
      response: { 200: Ok(Type.Array(AdminArticle)) },
    },
    handler: async (req) => ok(req, await support.adminArticles()),
  });

  app.post(`/${AdminSupportPaths.saveArticle}`, {
    preHandler: adminOnly,
    schema: {
      tags: adminTags,
      summary: 'Create (no id) or replace a help article and its texts',
      security: secured,
      body: AdminArticleBody,
      response: { 200: Ok(AdminArticle) },
    },
    handler: async (req) =>
      ok(req, await support.saveArticle(operatorOf(req), req.ip, req.body), 'support.saved'),
  });

  app.post(`/${AdminSupportPaths.deleteArticle}`, {
    preHandler: adminOnly,
    schema: {
      tags: adminTags,
      summary: 'Delete a help article',
      security: secured,
      body: AdminArticleIdBody,
      response: { 200: Ok(Empty) },
    },
    handler: async (req) =>
      ok(req, await support.deleteArticle(operatorOf(req), req.ip, req.body.id), 'support.deleted'),
  });

  app.get(`/${AdminSupportPaths.customerUrl}`, {
    preHandler: adminOnly,
    schema: {
      tags: adminTags,
      summary: 'Where "online service" leads, and the external address if one is set',
      security: secured,
      response: { 200: Ok(CustomerUrlSetting) },
    },
    handler: async (req) => ok(req, await support.customerUrl()),
  });

  app.post(`/${AdminSupportPaths.customerUrl}`, {
    preHandler: adminOnly,
    schema: {
      tags: adminTags,
      summary: 'Set an external https:// customer-service address, or empty for the built-in chat',
      security: secured,
      body: CustomerUrlBody,
      response: { 200: Ok(CustomerUrlSetting) },
    },
    handler: async (req) =>
      ok(req, await support.setCustomerUrl(operatorOf(req), req.ip, req.body.url), 'support.saved'),
  });
}
