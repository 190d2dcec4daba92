import { DEFAULT_LANG, ErrorCode, isLang, LANG_HEADER, type Lang } from '@verdant/api';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { t } from '../i18n/index.ts';
import { AppError } from './errors.ts';
import { rejectControlCharacters } from './input.ts';

declare module 'fastify' {
  interface FastifyRequest {
    lang: Lang;
  }
}

/** Longest URL we read; longer ones get a 414 in the envelope. */
export const MAX_URL_LENGTH = 8192;

function requestLang(req: FastifyRequest): Lang {
  const h = req.headers[LANG_HEADER];
  if (isLang(h)) return h;
  let q: unknown;
  try {
    q = (req.query as Record<string, unknown> | undefined)?.lang;
  } catch {
    // the query string itself may be what is broken
  }
  if (isLang(q)) return q;
  return DEFAULT_LANG;
}

function send(reply: FastifyReply, status: number, code: number, message: string, field?: string) {
  const body =
    code === ErrorCode.NOT_LOGGED_IN
      ? { type: '999', code, message }
      : { type: 'error', code, message, ...(field ? { field } : {}) };
  return reply.status(status).type('application/json; charset=utf-8').send(body);
}

type FrameworkError = { status: number; code: number; key: string };
const MALFORMED: FrameworkError = { status: 400, code: ErrorCode.VALIDATION, key: 'errors.malformedBody' };
const BODY_TOO_LARGE: FrameworkError = {
  status: 413,
  code: ErrorCode.FILE_TOO_LARGE,
  key: 'errors.bodyTooLarge',
};

/** Framework failures (bad JSON, body too large, …) mapped to our codes and messages. */
const FRAMEWORK: Record<string, FrameworkError> = {
  FST_ERR_CTP_INVALID_JSON_BODY: MALFORMED,
  FST_ERR_CTP_EMPTY_JSON_BODY: MALFORMED,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: MALFORMED,
  FST_ERR_CTP_BODY_TOO_LARGE: BODY_TOO_LARGE,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: ErrorCode.VALIDATION,
    key: 'errors.unsupportedMediaType',
  },
  FST_ERR_BAD_URL: { status: 400, code: ErrorCode.VALIDATION, key: 'errors.badUrl' },
  FST_REQ_FILE_TOO_LARGE: { status: 413, code: ErrorCode.FILE_TOO_LARGE, key: 'errors.fileTooLarge' },
  FST_PARTS_LIMIT: BODY_TOO_LARGE,
  FST_FILES_LIMIT: BODY_TOO_LARGE,
  FST_FIELDS_LIMIT: BODY_TOO_LARGE,
  FST_INVALID_MULTIPART_CONTENT_TYPE: MALFORMED,
  FST_MULTIPART_INVALID_CONTENT_TYPE: MALFORMED,
  FST_ERR_REP_INVALID_PAYLOAD_TYPE: { status: 500, code: ErrorCode.INTERNAL, key: 'errors.internal' },
};

/**
 * The envelope around every answer under /api: language detection, localized errors, 404s,
 * and failures from the framework and the HTTP parser. 5xx details are logged, never sent.
 */
export const envelopePlugin = fp(async function envelope(app: FastifyInstance) {
  app.decorateRequest('lang', DEFAULT_LANG);
  app.addHook('onRequest', async (req, reply) => {
    req.lang = requestLang(req);
    if (req.url.length > MAX_URL_LENGTH)
      return send(reply, 414, ErrorCode.VALIDATION, t(req.lang, 'errors.urlTooLong'));
  });

  // A POST with no body at all is an empty form: the service then says which field is missing,
  // instead of "could not be read".
  app.addHook('preValidation', async (req) => {
    if (req.body === undefined && !req.headers['content-type'] && req.method !== 'GET') req.body = {};
  });
  rejectControlCharacters(app);

  app.setErrorHandler((err: FastifyError | AppError, req, reply) => {
    if (err instanceof AppError) {
      if (err.statusCode >= 500) req.log.error({ err }, 'server error');
      return send(reply, err.statusCode, err.code, t(req.lang, err.messageKey, err.params), err.field);
    }
    const known = err.code ? FRAMEWORK[err.code] : undefined;
    if (known) {
      if (known.status >= 500) req.log.error({ err }, 'server error');
      return send(reply, known.status, known.code, t(req.lang, known.key, { max: maxSizeLabel(app) }));
    }
    if (err.validation) {
      const field =
        err.validation[0]?.instancePath?.replace(/^\//, '') ||
        String(err.validation[0]?.params?.missingProperty ?? '');
      // no field at fault: the body as a whole is not a form (JSON null, an array, a string)
      if (!field) return send(reply, 400, ErrorCode.VALIDATION, t(req.lang, 'errors.malformedBody'));
      return send(reply, 400, ErrorCode.VALIDATION, t(req.lang, 'errors.invalidField', { field }), field);
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // a client error from a plugin we did not map: keep its status, word it ourselves
      req.log.info({ code: err.code, msg: err.message }, 'client error');
      return send(reply, status, ErrorCode.VALIDATION, t(req.lang, 'errors.badRequest'));
    }
    req.log.error({ err }, 'server error');
    return send(reply, 500, ErrorCode.INTERNAL, t(req.lang, 'errors.internal'));
  });

  app.setNotFoundHandler((req, reply) =>
    send(reply, 404, ErrorCode.NOT_FOUND, t(req.lang, 'errors.notFound')),
  );
});

function maxSizeLabel(app: FastifyInstance): string {
  const bytes = app.ctx?.config.uploadMaxBytes ?? 0;
  if (bytes < 1024 * 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`;
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}

/**
 * Node's HTTP parser rejects some requests before Fastify sees them (headers or URL over the
 * size limit, broken framing). Answer those in the envelope too, in the default language.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: import('node:net').Socket) {
  if (!socket.writable) return socket.destroy();
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? 431 : 400;
  const body = JSON.stringify({
    type: 'error',
    code: ErrorCode.VALIDATION,
    message: t(DEFAULT_LANG, tooLarge ? 'errors.urlTooLong' : 'errors.malformedBody'),
  });
  socket.end(
    `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Connection: close\r\n\r\n${body}`,
  );
}

/** Router-level failures (bad percent-encoding, bad content type) happen before any hook runs. */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  const lang = requestLang(req);
  const known = err.code ? FRAMEWORK[err.code] : undefined;
  return send(
    reply,
    known?.status ?? 400,
    known?.code ?? ErrorCode.VALIDATION,
    t(lang, known?.key ?? 'errors.badRequest'),
  );
}
