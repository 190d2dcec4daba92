import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  BindContactBody,
  Center2,
  ChangePasswordBody,
  CheckEmailBody,
  CheckMobileBody,
  Empty,
  ExistsResult,
  ForgetBody,
  FundPasswordBody,
  HasPasswordResult,
  LoginBody,
  LoginResult,
  NicknameBody,
  Ok,
  Paths,
  RegisterBody,
  SendCodeResult,
  SmsMailBody,
  SmsSendBody,
  UserCenter,
} from '@verdant/api';
import type { FastifyInstance } from 'fastify';
import { optionalUser, requireUser, userId } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { limit } from '../../http/rate-limits.ts';
import { parsePurpose } from '../codes/service.ts';
import { userService } from './service.ts';

const secured = [{ session: [] }];
const sessionOptional: Record<string, string[]>[] = [{}, { session: [] }];

export default async function userRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const users = userService(app.ctx);
  const auth = requireUser(app);
  const maybeAuth = optionalUser(app);

  app.post(`/${Paths.smsSend}`, {
    preHandler: [maybeAuth, limit(app, 'codes')],
    schema: {
      tags: ['codes'],
      summary: 'Send a 6-digit code by SMS',
      description: 'Purposes fund_password and address need a session and go to its own phone',
      security: sessionOptional,
      body: SmsSendBody,
      response: { 200: Ok(SendCodeResult) },
    },
    handler: async (req) =>
      ok(
        req,
        await users.sendCode('mobile', req.body, parsePurpose(req.body.type), req.user, req.lang),
        'codes.sent',
      ),
  });

  app.post(`/${Paths.smsMail}`, {
    preHandler: [maybeAuth, limit(app, 'codes')],
    schema: {
      tags: ['codes'],
      summary: 'Send a 6-digit code by e-mail',
      description: 'Purposes fund_password and address need a session and go to its own e-mail',
      security: sessionOptional,
      body: SmsMailBody,
      response: { 200: Ok(SendCodeResult) },
    },
    handler: async (req) =>
      ok(
        req,
        await users.sendCode('email', req.body, parsePurpose(req.body.type), req.user, req.lang),
        'codes.sent',
      ),
  });

  app.post(`/${Paths.register}`, {
    preHandler: limit(app, 'passwordChecks'),
    schema: {
      tags: ['user'],
      summary: 'Register by phone or e-mail',
      body: RegisterBody,
      response: { 200: Ok(LoginResult) },
    },
    handler: async (req) => ok(req, await users.register(req.body, req), 'account.registered'),
  });

  app.post(`/${Paths.login}`, {
    preHandler: limit(app, 'login'),
    schema: {
      tags: ['user'],
      summary: 'Log in with phone or e-mail and password',
      body: LoginBody,
      response: { 200: Ok(LoginResult) },
    },
    handler: async (req) => ok(req, await users.login(req.body, req), 'account.loginSuccess'),
  });

  app.post(`/${Paths.logout}`, {
    preHandler: auth,
    schema: { tags: ['user'], summary: 'End this session', security: secured, response: { 200: Ok(Empty) } },
    handler: async (req) => {
      await users.logout(req.user!);
      return ok(req, null, 'account.loggedOut');
    },
  });

  app.post(`/${Paths.forget}`, {
    preHandler: limit(app, 'passwordChecks'),
    schema: {
      tags: ['user'],
      summary: 'Reset the login password with a code (without password: only checks the code)',
      body: ForgetBody,
      response: { 200: Ok(Type.Object({ step: Type.String() })) },
    },
    handler: async (req) => {
      const step = await users.forget(req.body);
      return ok(req, { step }, step === 'checked' ? 'codes.verified' : 'account.passwordReset');
    },
  });

  app.post(`/${Paths.changeLoginPassword}`, {
    preHandler: [auth, limit(app, 'passwordChecks')],
    schema: {
      tags: ['user'],
      summary: 'Change the login password; every session ends',
      security: secured,
      body: ChangePasswordBody,
      response: { 200: Ok(Empty) },
    },
    handler: async (req) => {
      await users.changePassword(userId(req), req.body);
      return ok(req, null, 'account.passwordChanged');
    },
  });

  app.post(`/${Paths.fundPassword}`, {
    preHandler: [auth, limit(app, 'passwordChecks')],
    schema: {
      tags: ['user'],
      summary: 'Set or change the 6-digit fund password',
      security: secured,
      body: FundPasswordBody,
      response: { 200: Ok(Empty) },
    },
    handler: async (req) => {
      await users.setFundPassword(userId(req), req.body);
      return ok(req, null, 'fund.set');
    },
  });

  app.post(`/${Paths.hasPassword}`, {
    preHandler: auth,
    schema: {
      tags: ['user'],
      summary: 'Whether a fund password is set',
      security: secured,
      response: { 200: Ok(HasPasswordResult) },
    },
    handler: async (req) => ok(req, { has_password: await users.hasFundPassword(userId(req)) }),
  });

  app.post(`/${Paths.checkMobile}`, {
    preHandler: limit(app, 'codes'),
    schema: {
      tags: ['user'],
      summary: 'Whether a phone number is registered',
      body: CheckMobileBody,
      response: { 200: Ok(ExistsResult) },
    },
    handler: async (req) => ok(req, { exists: await users.checkMobile(req.body.area_code, req.body.mobile) }),
  });

  app.post(`/${Paths.checkEmail}`, {
    preHandler: limit(app, 'codes'),
    schema: {
      tags: ['user'],
      summary: 'Whether an e-mail address is registered',
      body: CheckEmailBody,
      response: { 200: Ok(ExistsResult) },
    },
    handler: async (req) => ok(req, { exists: await users.checkEmail(req.body.email) }),
  });

  app.get(`/${Paths.center}`, {
    preHandler: auth,
    schema: {
      tags: ['user'],
      summary: "The user's profile",
      security: secured,
      response: { 200: Ok(UserCenter) },
    },
    handler: async (req) => ok(req, await users.center(userId(req))),
  });

  app.get(`/${Paths.center2}`, {
    preHandler: auth,
    schema: {
      tags: ['user'],
      summary: "The user's security overview: bound contacts, fund password, verification, sessions",
      security: secured,
      response: { 200: Ok(Center2) },
    },
    handler: async (req) => ok(req, await users.center2(userId(req))),
  });

  app.post(`/${Paths.nickname}`, {
    preHandler: auth,
    schema: {
      tags: ['user'],
      summary: 'Change the nickname',
      security: secured,
      body: NicknameBody,
      response: { 200: Ok(UserCenter) },
    },
    handler: async (req) => ok(req, await users.setNickname(userId(req), req.body.nickname)),
  });

  app.post(`/${Paths.smsOtherMail}`, {
    preHandler: [auth, limit(app, 'passwordChecks')],
    schema: {
      tags: ['user'],
      summary:
        'Bind the other contact (e-mail to a phone account, or phone to an e-mail account) with a code',
      security: secured,
      body: BindContactBody,
      response: { 200: Ok(UserCenter) },
    },
    handler: async (req) => ok(req, await users.bindContact(userId(req), req.body), 'account.bound'),
  });
}
