import { type Static, Type } from '@sinclair/typebox';
import { MONEY_REQUEST_STATES, PAGE_LIMIT_MAX } from '../constants.ts';
import { AdminBalance, AdminUser } from './admin.ts';
import { Literals, Str } from './common.ts';

// The operator console's users, dashboard and balance adjustments, and the users' demo funds (issue 23).

const Nullable = (description?: string) =>
  Type.Union([Type.String(description ? { description } : {}), Type.Null()]);
const Time = Type.String({ format: 'date-time' });

export const FREEZE_TARGETS = ['login', 'withdraw'] as const;
export type FreezeTargetName = (typeof FREEZE_TARGETS)[number];

export const AdminFreezeBody = Type.Object({
  user_id: Str('User id; required', { maxLength: 12 }),
  target: Str('login (refuses logins and ends live sessions) or withdraw (refuses withdrawals)', {
    maxLength: 20,
  }),
  reason: Str('Why, for the audit log; required, at most 200 characters', { maxLength: 400 }),
});
export type AdminFreezeBody = Static<typeof AdminFreezeBody>;

/** One row of a user's activity in another module, as the detail lists it. */
export const AdminActivityRow = Type.Object({
  id: Type.String(),
  title: Type.String({ description: 'Market, product or contract' }),
  status: Type.String(),
  amount: Type.String({ description: 'Decimal string: what it holds or moved' }),
  detail: Type.String({ description: 'Side, direction, lots, price…' }),
  created_at: Time,
});
export type AdminActivityRow = Static<typeof AdminActivityRow>;

export const AdminUserDetail = Type.Object({
  user: AdminUser,
  lang: Type.String(),
  last_login_ip: Nullable(),
  invited_by: Type.Union([Type.Integer(), Type.Null()]),
  inviter_account: Nullable(),
  invitee_count: Type.Integer(),
  invitees: Type.Array(Type.Object({ id: Type.Integer(), account: Type.String(), created_at: Time })),
  balances: Type.Array(AdminBalance),
  spot_orders: Type.Array(AdminActivityRow),
  contract_positions: Type.Array(AdminActivityRow),
  option_orders: Type.Array(AdminActivityRow),
  trust_orders: Type.Array(AdminActivityRow),
  demo_funds: Type.Union([
    Type.Object({ amount: Type.String(), symbol: Type.String(), created_at: Time }),
    Type.Null(),
  ]),
});
export type AdminUserDetail = Static<typeof AdminUserDetail>;

export const AdjustmentState = Literals(MONEY_REQUEST_STATES);

export const AdminAdjustment = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  user_account: Type.String(),
  account_type: Type.String({ description: 'spot, option, contract or trust' }),
  currency_id: Type.Integer(),
  symbol: Type.String(),
  amount: Type.String({ description: 'Signed decimal string: a credit or a debit of the available balance' }),
  reason: Type.String(),
  status: AdjustmentState,
  requested_by: Type.Integer(),
  requested_by_name: Type.String(),
  reviewed_by: Type.Union([Type.Integer(), Type.Null()]),
  reviewed_by_name: Nullable(),
  review_note: Nullable(),
  created_at: Time,
  reviewed_at: Nullable(),
});
export type AdminAdjustment = Static<typeof AdminAdjustment>;

export const AdminAdjustmentBody = Type.Object({
  user_id: Str('User id; required', { maxLength: 12 }),
  account_type: Str('spot, option, contract or trust; required', { maxLength: 20 }),
  currency_id: Str('Currency id; required', { maxLength: 12 }),
  amount: Str('Signed amount, e.g. 25.5 or -3; required, not zero', { maxLength: 60 }),
  reason: Str('Why; required, at most 200 characters', { maxLength: 400 }),
});
export type AdminAdjustmentBody = Static<typeof AdminAdjustmentBody>;

export const AdminAdjustmentReviewBody = Type.Object({
  id: Str('Id of the adjustment; required', { maxLength: 20 }),
  note: Str('A note; required when rejecting, at most 200 characters', { maxLength: 400 }),
});
export type AdminAdjustmentReviewBody = Static<typeof AdminAdjustmentReviewBody>;

const PerCurrency = Type.Array(
  Type.Object({ symbol: Type.String(), count: Type.Integer(), amount: Type.String() }),
);

export const AdminDashboard = Type.Object({
  users: Type.Object({ total: Type.Integer(), new_today: Type.Integer() }),
  /** "today" starts at 00:00 UTC */
  since: Time,
  deposits: Type.Object({ pending: PerCurrency, approved_today: PerCurrency }),
  withdrawals: Type.Object({ pending: PerCurrency, approved_today: PerCurrency }),
  spot_volumes: Type.Array(
    Type.Object({
      symbol: Type.String(),
      trades: Type.Integer(),
      base_volume: Type.String(),
      quote_volume: Type.String(),
    }),
  ),
  open_interest: Type.Array(
    Type.Object({
      symbol: Type.String(),
      positions: Type.Integer(),
      lots: Type.Integer(),
      margin: Type.String(),
    }),
  ),
  house_results: Type.Array(
    Type.Object({
      house: Type.String({ description: 'option_pool or contract_pool' }),
      symbol: Type.String(),
      balance: Type.String({
        description: "The house account's balance: what it won (> 0) or lost (< 0) in all",
      }),
    }),
  ),
  adjustments_pending: Type.Integer(),
});
export type AdminDashboard = Static<typeof AdminDashboard>;

export const LedgerCheck = Type.Object({
  ok: Type.Boolean(),
  accounts: Type.Integer(),
  entries: Type.Integer(),
  journals: Type.Integer(),
  problems: Type.Array(Type.String(), { maxItems: PAGE_LIMIT_MAX }),
  checked_at: Time,
});
export type LedgerCheck = Static<typeof LedgerCheck>;

/** GET wallet/demo_funds: whether the assets page offers them; POST answers the same after taking them. */
export const DemoFundsInfo = Type.Object({
  offered: Type.Boolean({ description: 'True while this user may still take them on this server' }),
  taken: Type.Boolean(),
  amount: Type.String({ description: 'What they give, a decimal string' }),
  symbol: Type.String(),
});
export type DemoFundsInfo = Static<typeof DemoFundsInfo>;
