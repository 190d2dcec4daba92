import { ErrorCode, type ErrorCodeName } from '@verdant/api';
import type { MessageParams } from '../i18n/index.ts';

const STATUS: Partial<Record<ErrorCodeName, number>> = {
  NOT_LOGGED_IN: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  ACCOUNT_EXISTS: 409,
  FILE_TOO_LARGE: 413,
  UNSUPPORTED_FILE: 415,
  RATE_LIMITED: 429,
  CODE_ATTEMPTS: 429,
  CODE_TOO_SOON: 429,
  FUND_PASSWORD_LOCKED: 423,
  WITHDRAW_FROZEN: 403,
  DEMO_FUNDS_OFF: 403,
  DEMO_FUNDS_TAKEN: 409,
  INTERNAL: 500,
  UNAVAILABLE: 503,
};

/**
 * A failure the user is told about: a code, a message key of the server's locales (translated
 * per request), and the HTTP status that goes with it. Thrown from services, answered by the
 * error handler; nothing the request started is kept (transactions roll back).
 */
export class AppError extends Error {
  readonly code: number;
  readonly statusCode: number;
  constructor(
    readonly codeName: ErrorCodeName,
    readonly messageKey: string,
    readonly params: MessageParams = {},
    readonly field?: string,
  ) {
    super(messageKey);
    this.code = ErrorCode[codeName];
    this.statusCode = STATUS[codeName] ?? 400;
  }
}

/** Shorthand for the most common case: a rule about one input field was broken. */
export const invalid = (messageKey: string, field?: string, params: MessageParams = {}) =>
  new AppError('VALIDATION', messageKey, params, field);

export class NotLoggedInError extends AppError {
  constructor(messageKey = 'errors.notLoggedIn') {
    super('NOT_LOGGED_IN', messageKey);
  }
}
