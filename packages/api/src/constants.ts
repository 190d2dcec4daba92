// The contract's plain values: kinds, states, fixed ids and limits. No TypeBox here, so the web
// app can import them without pulling schema code into its first-load bundle; the schemas build
// their unions from these lists, and server, web and seeds use the same ones.

// ---- accounts and codes ------------------------------------------------------------------

/** How a user registers and logs in, and where a verification code goes. */
export const ACCOUNT_TYPES = ['mobile', 'email'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

/** What a verification code is for (`type` of sms_send / sms_mail). */
export const CODE_PURPOSES = ['register', 'forget', 'fund_password', 'address', 'bind'] as const;
export type CodePurpose = (typeof CODE_PURPOSES)[number];

/** A user's account: active, or disabled by the platform (no login, no session). */
export const USER_STATUSES = ['active', 'disabled'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** Login password length, in characters. */
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 64;
/** A fund password is exactly this many digits; so is a verification code. */
export const FUND_PASSWORD_LENGTH = 6;
export const CODE_LENGTH = 6;
/** Nickname length, in characters. */
export const NICKNAME_MIN = 2;
export const NICKNAME_MAX = 20;

// ---- identity verification ---------------------------------------------------------------

export const VERIFICATION_LEVELS = ['basic', 'advanced'] as const;
export type VerificationLevel = (typeof VERIFICATION_LEVELS)[number];
/** A submission's state: waiting for an operator, accepted, or refused with a reason. */
export const SUBMISSION_STATES = ['pending', 'verified', 'rejected'] as const;
export type SubmissionState = (typeof SUBMISSION_STATES)[number];
/** A user's state per level: `none` until the first submission, then its latest state. */
export const VERIFICATION_STATES = ['none', ...SUBMISSION_STATES] as const;
export type VerificationState = (typeof VERIFICATION_STATES)[number];
/** Basic verification's fields, in characters: name, ID number (letters and digits), address. */
export const ID_NAME_MIN = 2;
export const ID_NAME_MAX = 100;
export const ID_NUMBER_MIN = 4;
export const ID_NUMBER_MAX = 30;
export const ID_ADDRESS_MAX = 200;

// ---- wallet ------------------------------------------------------------------------------

/** The four accounts every user has per currency, in the order of spec §2. */
export const WALLET_ACCOUNT_TYPES = ['spot', 'option', 'contract', 'trust'] as const;
export type WalletAccountType = (typeof WALLET_ACCOUNT_TYPES)[number];

/** The base coins' fixed ids (spec §3); the seeds insert them with these ids. */
export const CURRENCY_IDS = { BTC: 1, ETH: 2, USDT: 3, BANK: 9999 } as const;

/** Deposit and withdrawal states as stored, and the display code of spec §4 for each. */
export const MONEY_REQUEST_STATES = ['pending', 'approved', 'rejected'] as const;
export type MoneyRequestState = (typeof MONEY_REQUEST_STATES)[number];
export const MONEY_REQUEST_DISPLAY = {
  pending: 'under_review',
  approved: 'passed',
  rejected: 'rejected',
} as const;
export type MoneyRequestDisplay = (typeof MONEY_REQUEST_DISPLAY)[MoneyRequestState];

/** Withdrawal requests a user can make per UTC day (spec §9). */
export const WITHDRAWALS_PER_DAY = 3;
/** Bank cards one user may bind; saved withdrawal addresses one user may keep. */
export const BANK_CARDS_MAX = 10;
export const WITHDRAW_ADDRESSES_MAX = 50;
/** A saved withdrawal address's length, in characters. */
export const WITHDRAW_ADDRESS_LENGTH_MAX = 128;
/** Remarks, in characters: a saved withdrawal address's name, and a withdrawal's note. */
export const WITHDRAW_ADDRESS_REMARK_MAX = 50;
export const WITHDRAW_REMARK_MAX = 100;

// ---- lists and operators -----------------------------------------------------------------

/** Rows per page of every paged list: the default and the most. */
export const PAGE_LIMIT_DEFAULT = 20;
export const PAGE_LIMIT_MAX = 100;

/** Operator roles: a reviewer lists and reviews; an admin also reads the audit log. */
/** admin: everything; reviewer: the review queues; support: the help centre's chats. */
export const OPERATOR_ROLES = ['admin', 'reviewer', 'support'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/**
 * Where an operator session stands: a forced password change, then TOTP enrolment or a TOTP
 * code; only a 'ready' session may use the operator API beyond these steps.
 */
export const OPERATOR_SESSION_STAGES = ['password', 'totp_setup', 'totp', 'ready'] as const;
export type OperatorSessionStage = (typeof OPERATOR_SESSION_STAGES)[number];

/** An operator's rejection reason and a payout reference, in characters. */
export const REASON_MAX = 200;
export const TX_REF_MAX = 200;

// ---- spot orders -------------------------------------------------------------------------

export const ORDER_SIDES = ['buy', 'sell'] as const;
export type OrderSide = (typeof ORDER_SIDES)[number];
export const ORDER_TYPES = ['limit', 'market'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];
/** waiting: open on the book (maybe partly filled); completed: fully filled, or a market order
 *  that traded what it could; cancelled: cancelled by the user or by the engine, maybe partly filled. */
export const ORDER_STATUSES = ['waiting', 'completed', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
/** Why a cancelled order left the book: the user, what a market order could not trade, or self-trade. */
export const CANCEL_REASONS = ['user', 'unfilled', 'self_trade'] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];
/** A fill's side of the trade: resting on the book (maker) or arriving (taker). */
export const TRADE_ROLES = ['maker', 'taker'] as const;
export type TradeRole = (typeof TRADE_ROLES)[number];

// ---- market data -------------------------------------------------------------------------

/** Candle intervals that are stored, oldest unit first (spec §9 without the time-share line). */
export const CANDLE_INTERVALS = ['1min', '5min', '30min', '60min', '1day', '1week', '1mon'] as const;
export type CandleInterval = (typeof CANDLE_INTERVALS)[number];
/** Every chart interval of spec §9: the time-share line is drawn from the 1-minute candles. */
export const CHART_INTERVALS = ['timeshare', ...CANDLE_INTERVALS] as const;
export type ChartInterval = (typeof CHART_INTERVALS)[number];

export function isChartInterval(v: unknown): v is ChartInterval {
  return typeof v === 'string' && (CHART_INTERVALS as readonly string[]).includes(v);
}

/** Where a candle came from: back-filled simulation, index ticks, or trades. */
export const CANDLE_SOURCES = ['sim', 'index', 'trade'] as const;
export type CandleSource = (typeof CANDLE_SOURCES)[number];

/** Candles per page of `currency/new_timeshar`: default and most. */
export const CANDLES_DEFAULT_LIMIT = 300;
export const CANDLES_MAX_LIMIT = 1000;
/** Recent trades of `currency/deal`: default and most; depth levels per side. */
export const DEALS_DEFAULT_LIMIT = 50;
export const DEALS_MAX_LIMIT = 100;
export const DEPTH_LEVELS = 20;
/** Streams one socket may be subscribed to at once. */
export const MAX_STREAMS_PER_SOCKET = 64;
