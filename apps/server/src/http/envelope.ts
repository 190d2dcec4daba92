import type { ApiOk } from '@verdant/api';
import type { FastifyRequest } from 'fastify';
import { type MessageParams, t } from '../i18n/index.ts';

/** The success envelope, with its message in the request's language. */
export function ok<T>(
  req: FastifyRequest,
  data: T,
  messageKey = 'common.ok',
  params?: MessageParams,
): ApiOk<T> {
  return { type: 'ok', code: 1, message: t(req.lang, messageKey, params), data };
}
