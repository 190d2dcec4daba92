// Locked deposit products, "trust" / "hosting" (spec: pages/finance/*, calls lh/deposit/*). The
// principal is locked in the trust account for a term of whole days; interest is paid each day;
// early redemption costs the product's penalty. Rules: docs/decisions.md ("Locked deposit products").
import { type Static, Type } from '@sinclair/typebox';
import { Literals, Str } from './common.ts';

/** ongoing: on sale; soon: shown, not yet on sale (spec §4). */
export const TRUST_PRODUCT_STATES = ['ongoing', 'soon'] as const;
export type TrustProductState = (typeof TRUST_PRODUCT_STATES)[number];
/** The order tabs of spec §4: hosting, completed (matured), redeemed (early). */
export const TRUST_ORDER_STATUSES = ['hosting', 'completed', 'redeemed'] as const;
export type TrustOrderStatus = (typeof TRUST_ORDER_STATUSES)[number];
/**
 * daily_interest: penalty_rate × one day's interest (1.5 ×); remaining_days: penalty_rate × days
 * left × principal (0.4 % × 3 × 1,000 = 12). Both deducted from the principal.
 */
export const TRUST_PENALTY_RULE_NAMES = ['daily_interest', 'remaining_days'] as const;
export type TrustPenaltyRuleName = (typeof TRUST_PENALTY_RULE_NAMES)[number];

const Dec = (description: string) => Type.String({ description: `${description} (decimal string)` });
const Iso = (description: string) => Type.String({ description: `${description}, ISO 8601` });

export const TrustProduct = Type.Object({
  id: Type.Integer(),
  name: Type.String({ description: "In the request's language" }),
  currency: Type.String({ description: 'USDT' }),
  currency_id: Type.Integer(),
  decimals: Type.Integer({ description: 'Places an amount may have' }),
  term_days: Type.Integer(),
  min_amount: Dec('Minimum (starting) amount'),
  daily_rate: Dec('Daily yield as a fraction (0.004 = 0.4 %)'),
  total_rate: Dec('Total yield over the term: daily_rate × term_days'),
  state: Literals(TRUST_PRODUCT_STATES),
  capacity: Dec('Principal the product takes in all'),
  remaining: Dec('What is left of the capacity'),
  penalty_rule: Literals(TRUST_PENALTY_RULE_NAMES),
  penalty_rate: Dec('Factor of the penalty rule'),
});
export type TrustProduct = Static<typeof TrustProduct>;

export const TrustConfig = Type.Object({
  products: Type.Array(TrustProduct),
});
export type TrustConfig = Static<typeof TrustConfig>;

export const TrustProductQuery = Type.Object({
  id: Str('Product id; required', { maxLength: 9 }),
});
export type TrustProductQuery = Static<typeof TrustProductQuery>;

export const TrustProductInfo = Type.Object({
  product: TrustProduct,
  available: Type.Union([Dec('Available in your trust account'), Type.Null()], {
    description: 'null when not logged in',
  }),
});
export type TrustProductInfo = Static<typeof TrustProductInfo>;

export const TrustBuyBody = Type.Object({
  product_id: Str('Product id; required', { maxLength: 9 }),
  amount: Str('Principal, in the product currency; at least its minimum', { maxLength: 60 }),
  agree: Str('1 when the service agreement is ticked; required', { maxLength: 5 }),
});
export type TrustBuyBody = Static<typeof TrustBuyBody>;

export const TrustOrder = Type.Object({
  id: Type.String(),
  product_id: Type.Integer(),
  name: Type.String(),
  currency: Type.String(),
  decimals: Type.Integer({ description: "Places of the currency's amounts" }),
  status: Literals(TRUST_ORDER_STATUSES),
  amount: Dec('Hosted (escrow) amount'),
  term_days: Type.Integer(),
  daily_rate: Dec('Daily yield'),
  daily_interest: Dec('What each day pays'),
  days_paid: Type.Integer({ description: 'Days of interest paid so far' }),
  remaining_days: Type.Integer({ description: 'Days until maturity (0 once ended)' }),
  income: Dec('Current income: interest paid so far'),
  expected_income: Dec('Interest of the whole term'),
  penalty_rule: Literals(TRUST_PENALTY_RULE_NAMES),
  penalty_rate: Dec('Factor of the penalty rule'),
  penalty: Dec('Hosting: what redeeming now would cost; redeemed: what it cost; completed: 0'),
  started_at: Iso('Bought at'),
  payout_time: Type.Union([Iso('Next interest payout'), Type.Null()]),
  matures_at: Iso('Completion time: the principal comes back'),
  ended_at: Type.Union([Iso('Completed or redeemed at'), Type.Null()]),
});
export type TrustOrder = Static<typeof TrustOrder>;

export const TrustOrderQuery = Type.Object({
  status: Str('hosting (default), completed or redeemed', { maxLength: 20 }),
  page: Str('Page, from 1', { maxLength: 9 }),
  limit: Str('Rows per page, 1 to 100 (default 20)', { maxLength: 9 }),
});
export type TrustOrderQuery = Static<typeof TrustOrderQuery>;

export const TrustOrderPage = Type.Object({
  list: Type.Array(TrustOrder),
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer(),
});
export type TrustOrderPage = Static<typeof TrustOrderPage>;

export const TrustCancelBody = Type.Object({
  id: Str('Order id; required', { maxLength: 20 }),
});
export type TrustCancelBody = Static<typeof TrustCancelBody>;

export const TrustReport = Type.Object({
  currencies: Type.Array(
    Type.Object({
      currency: Type.String(),
      decimals: Type.Integer({ description: "Places of the currency's amounts" }),
      hosted: Dec('Principal hosting now'),
      income: Dec('Interest paid so far, all orders'),
    }),
  ),
  orders: Type.Object({
    hosting: Type.Integer(),
    completed: Type.Integer(),
    redeemed: Type.Integer(),
  }),
});
export type TrustReport = Static<typeof TrustReport>;
