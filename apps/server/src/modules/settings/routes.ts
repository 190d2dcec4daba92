import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AreaCode, CustomerUrlResult, LANGS, LangBody, LangResult, Ok, Paths } from '@verdant/api';
import type { FastifyInstance } from 'fastify';
import { optionalUser } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { intlLocale } from '../../i18n/index.ts';
import { supportService } from '../support/service.ts';
import { areaCodes, userService } from '../user/service.ts';

// works without a session; with one, the account's own language is read and kept
const sessionOptional: Record<string, string[]>[] = [{}, { session: [] }];

export default async function settingsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const users = userService(app.ctx);
  const maybeAuth = optionalUser(app);
  const support = supportService(app.ctx, app.io);

  app.post(`/${Paths.setLang}`, {
    preHandler: maybeAuth,
    schema: {
      tags: ['settings'],
      summary: 'Choose the language; kept on the account when logged in',
      security: sessionOptional,
      body: LangBody,
      response: { 200: Ok(LangResult) },
    },
    handler: async (req) => {
      const lang = await users.setLang(req.user?.id ?? null, req.body.lang);
      req.lang = lang;
      return ok(req, { lang, langs: [...LANGS] });
    },
  });

  app.post(`/${Paths.getLang}`, {
    preHandler: maybeAuth,
    schema: {
      tags: ['settings'],
      summary: 'The language in use and the languages offered',
      security: sessionOptional,
      response: { 200: Ok(LangResult) },
    },
    handler: async (req) => {
      const lang = req.user ? (await users.center(req.user.id)).lang : req.lang;
      return ok(req, { lang, langs: [...LANGS] });
    },
  });

  app.post(`/${Paths.customerUrl}`, {
    schema: {
      tags: ['settings'],
      summary: 'Where "online service" leads',
      response: { 200: Ok(CustomerUrlResult) },
    },
    // an operator's external address when one is set (admin/support/customer_url), else the chat
    handler: async (req) => ok(req, { url: (await support.customerUrl()).url }),
  });

  app.post(`/${Paths.areaCode}`, {
    schema: {
      tags: ['settings'],
      summary: 'Dialling codes with country names in the request language',
      response: { 200: Ok(Type.Array(AreaCode)) },
    },
    handler: async (req) => ok(req, areaCodes(intlLocale(req.lang))),
  });
}
