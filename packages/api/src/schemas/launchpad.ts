// New-coin subscription, the launchpad (spec: pages/publication/*, calls lh/send/*). Projects as
// data; a subscription freezes its payment until an operator passes (allots) or rejects it; the
// allotted coins stay locked until launch plus the lock-up, then the user redeems them. Rules:
// docs/decisions.md ("New-coin subscription").
import { type Static, Type } from '@sinclair/typebox';
import { Literals, Str } from './common.ts';

/** upcoming (not yet open), subscribing, sold_out (or closed before launch), launched (spec §4). */
export const LAUNCHPAD_STATES = ['upcoming', 'subscribing', 'sold_out', 'launched'] as const;
export type LaunchpadState = (typeof LAUNCHPAD_STATES)[number];
/** review: under review; passed: allotted; rejected (spec §4: under review, passed). */
export const LAUNCHPAD_ORDER_STATUSES = ['review', 'passed', 'rejected'] as const;
export type LaunchpadOrderStatus = (typeof LAUNCHPAD_ORDER_STATUSES)[number];

const Dec = (description: string) => Type.String({ description: `${description} (decimal string)` });
const Iso = (description: string) => Type.String({ description: `${description}, ISO 8601` });

export const LaunchpadProject = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  intro: Type.String({ description: "Introduction in the request's language" }),
  coin: Type.String({ description: 'The new coin: VDT' }),
  coin_decimals: Type.Integer(),
  pay_currency: Type.String({ description: 'Subscription (payment) currency: USDT' }),
  pay_decimals: Type.Integer(),
  issue_price: Dec('Price of one coin in the payment currency'),
  price: Dec('Current price: the market index once it trades, the issue price before'),
  total_supply: Dec('Coins offered'),
  subscribed: Dec('Payment subscribed so far (under review or passed)'),
  capacity: Dec('total_supply × issue_price'),
  progress: Dec('subscribed / capacity, 0 to 1'),
  user_min: Dec('Smallest subscription'),
  user_max: Dec('Most one user may subscribe in all'),
  starts_at: Iso('Subscription opens'),
  ends_at: Iso('Subscription closes'),
  launch_at: Iso('Estimated launch'),
  lockup_days: Type.Integer({ description: 'Lock-up after launch' }),
  unlock_at: Iso('Allotted coins are redeemable from'),
  expected_return: Dec('Expected gross return as a fraction'),
  state: Literals(LAUNCHPAD_STATES),
});
export type LaunchpadProject = Static<typeof LaunchpadProject>;

export const LaunchpadListQuery = Type.Object({
  state: Str('Only this state: upcoming, subscribing, sold_out or launched', { maxLength: 20 }),
});
export type LaunchpadListQuery = Static<typeof LaunchpadListQuery>;

export const LaunchpadConfig = Type.Object({ projects: Type.Array(LaunchpadProject) });
export type LaunchpadConfig = Static<typeof LaunchpadConfig>;

export const LaunchpadProjectQuery = Type.Object({ id: Str('Project id; required', { maxLength: 9 }) });
export type LaunchpadProjectQuery = Static<typeof LaunchpadProjectQuery>;

export const LaunchpadProjectInfo = Type.Object({
  project: LaunchpadProject,
  available: Type.Union([Dec('Available in your spot account, payment currency'), Type.Null()]),
  mine: Type.Union([Dec('What you subscribed (under review or passed)'), Type.Null()]),
});
export type LaunchpadProjectInfo = Static<typeof LaunchpadProjectInfo>;

export const LaunchpadOrderBody = Type.Object({
  project_id: Str('Project id; required', { maxLength: 9 }),
  amount: Str('Amount in the payment currency; within the per-user limits', { maxLength: 60 }),
});
export type LaunchpadOrderBody = Static<typeof LaunchpadOrderBody>;

export const LaunchpadOrder = Type.Object({
  id: Type.String(),
  project_id: Type.Integer(),
  name: Type.String(),
  coin: Type.String(),
  coin_decimals: Type.Integer({ description: "Places of the coin's amounts" }),
  pay_currency: Type.String(),
  pay_decimals: Type.Integer({ description: "Places of the payment currency's amounts" }),
  amount: Dec('Subscribed, in the payment currency'),
  status: Literals(LAUNCHPAD_ORDER_STATUSES),
  issue_price: Dec('Issue price'),
  quantity: Type.Union([Dec('Coins allotted'), Type.Null()]),
  cost: Type.Union([Dec('What the allotted coins cost'), Type.Null()]),
  refund: Type.Union([Dec('What came back'), Type.Null()]),
  unlock_at: Type.Union([Iso('Redeemable from'), Type.Null()]),
  redeemable: Type.Boolean({ description: 'Passed, unlocked and not yet redeemed' }),
  redeemed_at: Type.Union([Iso('Redeemed at'), Type.Null()]),
  accumulated_return: Type.Union([Dec('quantity × (price − issue price)'), Type.Null()]),
  return_rate: Type.Union([Dec('price / issue price − 1'), Type.Null()]),
  reason: Type.Union([Type.String(), Type.Null()]),
  created_at: Iso('Subscribed at'),
  reviewed_at: Type.Union([Iso('Completion time: passed or rejected at'), Type.Null()]),
});
export type LaunchpadOrder = Static<typeof LaunchpadOrder>;

export const LaunchpadOrderQuery = Type.Object({
  status: Str('review, passed or rejected; every one when left out', { maxLength: 20 }),
  page: Str('Page, from 1', { maxLength: 9 }),
  limit: Str('Rows per page, 1 to 100 (default 20)', { maxLength: 9 }),
});
export type LaunchpadOrderQuery = Static<typeof LaunchpadOrderQuery>;

export const LaunchpadOrderPage = Type.Object({
  list: Type.Array(LaunchpadOrder),
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer(),
});
export type LaunchpadOrderPage = Static<typeof LaunchpadOrderPage>;

export const LaunchpadRedeemBody = Type.Object({ id: Str('Order id; required', { maxLength: 20 }) });
export type LaunchpadRedeemBody = Static<typeof LaunchpadRedeemBody>;

export const AdminLaunchpadPassBody = Type.Object({
  id: Str('Subscription id; required', { maxLength: 20 }),
  amount: Str('Amount to allot, in the payment currency; the whole subscription when left out', {
    maxLength: 60,
  }),
});
export type AdminLaunchpadPassBody = Static<typeof AdminLaunchpadPassBody>;

export const AdminLaunchpadOrder = Type.Intersect([
  LaunchpadOrder,
  Type.Object({ user_id: Type.Integer(), account: Type.Union([Type.String(), Type.Null()]) }),
]);
export type AdminLaunchpadOrder = Static<typeof AdminLaunchpadOrder>;
