/**
 * Error codes of the envelope. The message is always localized on the server; clients show it
 * as it comes and branch on the code only where the screen must react (999, fund password unset).
 */
export const ErrorCode = {
  OK: 1,
  NOT_LOGGED_IN: 999,
  // generic, mirrors of HTTP statuses
  VALIDATION: 1400,
  FORBIDDEN: 1403,
  NOT_FOUND: 1404,
  CONFLICT: 1409,
  FILE_TOO_LARGE: 1413,
  UNSUPPORTED_FILE: 1415,
  RATE_LIMITED: 1429,
  INTERNAL: 1500,
  // the database or the server is briefly unavailable (restart, lost connection): try again
  UNAVAILABLE: 1503,
  // verification codes
  CODE_INVALID: 2001,
  CODE_EXPIRED: 2002,
  CODE_ATTEMPTS: 2003,
  CODE_TOO_SOON: 2004,
  // accounts
  ACCOUNT_EXISTS: 2101,
  ACCOUNT_NOT_FOUND: 2102,
  WRONG_PASSWORD: 2103,
  PASSWORDS_INCONSISTENT: 2104,
  AGREEMENT_REQUIRED: 2105,
  INVITE_CODE_INVALID: 2106,
  ACCOUNT_DISABLED: 2107,
  // fund password
  FUND_PASSWORD_UNSET: 2201,
  FUND_PASSWORD_WRONG: 2202,
  FUND_PASSWORD_LOCKED: 2203,
  // money
  INSUFFICIENT_BALANCE: 3001,
  AMOUNT_BELOW_MINIMUM: 3002,
  CURRENCY_UNAVAILABLE: 3003,
  WITHDRAW_ADDRESS_REQUIRED: 3010,
  WITHDRAW_DAILY_LIMIT: 3011,
  // an operator froze the user's withdrawals
  WITHDRAW_FROZEN: 3013,
  ADDRESS_INVALID: 3012,
  VERIFICATION_REQUIRED: 3020,
  BASIC_VERIFICATION_REQUIRED: 3021,
  ALREADY_REVIEWED: 3030,
  // demo funds: already taken, or not offered on this server
  DEMO_FUNDS_TAKEN: 3040,
  DEMO_FUNDS_OFF: 3041,
  // operators
  ADMIN_FORBIDDEN: 4003,
} as const;
export type ErrorCodeName = keyof typeof ErrorCode;
