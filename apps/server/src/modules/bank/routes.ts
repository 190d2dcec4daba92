import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { BankCard, BankCardBody, BankCardIdBody, BankCardList, Empty, Ok, Paths } from '@verdant/api';
import type { FastifyInstance } from 'fastify';
import { requireUser, userId } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { t } from '../../i18n/index.ts';
import { bankService } from './service.ts';

const secured = [{ session: [] }];

export default async function bankRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const bank = bankService(app.ctx);
  const auth = requireUser(app);

  app.post(`/${Paths.bankCards}`, {
    preHandler: auth,
    schema: {
      tags: ['bank'],
      summary: "The user's bank cards (full numbers: the owner only; card_number_masked for lists)",
      security: secured,
      response: { 200: Ok(BankCardList) },
    },
    handler: async (req) => ok(req, await bank.list(userId(req))),
  });

  app.post(`/${Paths.saveBankCard}`, {
    preHandler: auth,
    // the app's address boxes have several rows: a line break typed there is kept as a space
    config: { multilineFields: ['bank_address', 'beneficiary_address'] },
    schema: {
      tags: ['bank'],
      summary: 'Bind a bank card, or update one of your own with id',
      security: secured,
      body: BankCardBody,
      response: { 200: Ok(BankCard) },
    },
    handler: async (req) => {
      try {
        return ok(req, await bank.save(userId(req), req.body), 'bank.saved');
      } catch (e) {
        // spec §8 "Binding failed", followed by what is wrong, on the field at fault
        if (e instanceof AppError && (e.codeName === 'VALIDATION' || e.codeName === 'CONFLICT')) {
          throw new AppError(
            e.codeName,
            'bank.bindFailed',
            { reason: t(req.lang, e.messageKey, e.params) },
            e.field,
          );
        }
        throw e;
      }
    },
  });

  app.post(`/${Paths.deleteBankCard}`, {
    preHandler: auth,
    schema: {
      tags: ['bank'],
      summary: 'Remove one of your bank cards',
      security: secured,
      body: BankCardIdBody,
      response: { 200: Ok(Empty) },
    },
    handler: async (req) => {
      await bank.remove(userId(req), req.body.id);
      return ok(req, null, 'bank.deleted');
    },
  });
}
