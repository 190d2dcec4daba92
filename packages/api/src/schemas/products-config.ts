import { type Static, Type } from '@sinclair/typebox';
import { LANGS } from '../lang.ts';
import { Literals, Str } from './common.ts';
import { TRUST_PENALTY_RULE_NAMES, TRUST_PRODUCT_STATES } from './trust.ts';

// Operators create and edit deposit products and new-coin projects (issue 23, configuration as
// data). Forms carry text, names and introductions one field per language (name_en, intro_th…);
// what may change once orders exist: docs/decisions.md, "Deposit products and projects".

export const ProductConfigPaths = {
  trustProducts: 'admin/trust/products', // GET
  saveTrustProduct: 'admin/trust/products/save',
  launchpadProjects: 'admin/launchpad/projects', // GET
  saveLaunchpadProject: 'admin/launchpad/projects/save',
} as const;

const Dec = (description: string) => Type.String({ description: `${description} (decimal string)` });
const Iso = (description: string) => Type.String({ description: `${description}, ISO 8601` });
const PerLang = (description: string) =>
  Type.Record(Type.String(), Type.String(), { description: `${description}, per language (th, en, …)` });
/** name_th … name_hk as form fields: English required, the others fall back to it. */
const langFields = (prefix: string, what: string, maxLength: number) =>
  Object.fromEntries(
    LANGS.map((l) => [
      `${prefix}_${l}`,
      Str(`${what} in ${l}${l === 'en' ? '; required' : ''}`, { maxLength }),
    ]),
  );

export const ConfigTrustProduct = Type.Object({
  id: Type.Integer(),
  name: PerLang('Name'),
  currency: Type.String(),
  term_days: Type.Integer(),
  min_amount: Dec('Minimum (starting) amount'),
  daily_rate: Dec('Daily yield'),
  state: Literals(TRUST_PRODUCT_STATES),
  capacity: Dec('Principal the product takes in all'),
  sold: Dec('Principal taken so far'),
  penalty_rule: Literals(TRUST_PENALTY_RULE_NAMES),
  penalty_rate: Dec('Factor of the penalty rule'),
  sort: Type.Integer(),
  orders: Type.Integer({ description: 'Orders ever bought (the currency is fixed once there is one)' }),
});
export type ConfigTrustProduct = Static<typeof ConfigTrustProduct>;

export const ConfigTrustProductBody = Type.Object({
  id: Str('Product id to edit; left out: a new product', { maxLength: 9 }),
  ...langFields('name', 'Name', 120),
  currency: Str('Currency symbol (USDT); fixed once the product has orders', { maxLength: 20 }),
  term_days: Str('Term in days, 1 to 3650 (orders keep the term they were bought with)'),
  min_amount: Str('Minimum amount, above 0'),
  daily_rate: Str('Daily yield, above 0 and below 1 (orders keep theirs)'),
  state: Str('ongoing or soon'),
  capacity: Str('Capacity, at least what is sold'),
  penalty_rule: Str('daily_interest or remaining_days'),
  penalty_rate: Str('Factor of the rule: 1.5 (× one day) or 0.004 (× days × principal)'),
  sort: Str('Display order, 0 to 9999'),
});
export type ConfigTrustProductBody = Static<typeof ConfigTrustProductBody>;

export const ConfigLaunchpadProject = Type.Object({
  id: Type.Integer(),
  name: PerLang('Name'),
  intro: PerLang('Introduction'),
  coin: Type.String(),
  pay_currency: Type.String(),
  issue_price: Dec('Issue price in the payment currency'),
  total_supply: Dec('Coins offered'),
  subscribed: Dec('Subscribed so far, in the payment currency'),
  user_min: Dec('Smallest subscription of a user'),
  user_max: Dec('Largest total of a user'),
  starts_at: Iso('Subscription opens'),
  ends_at: Iso('Subscription closes'),
  launch_at: Iso('Launch: the coin is listed'),
  lockup_days: Type.Integer(),
  expected_return: Dec('Expected gross return as a fraction'),
  recommend: Type.Boolean(),
  tick_size: Dec("Tick of the coin's market"),
  lot_size: Dec("Lot of the coin's market"),
  sort: Type.Integer(),
  orders: Type.Integer({ description: 'Subscriptions ever made' }),
  passed: Type.Integer({ description: 'Subscriptions passed (allotted)' }),
  listed: Type.Boolean({ description: "The coin's market exists" }),
});
export type ConfigLaunchpadProject = Static<typeof ConfigLaunchpadProject>;

export const ConfigLaunchpadProjectBody = Type.Object({
  id: Str('Project id to edit; left out: a new project', { maxLength: 9 }),
  ...langFields('name', 'Name', 120),
  ...langFields('intro', 'Introduction', 4000),
  coin: Str('Coin (a currency symbol no other project has); fixed once there are subscriptions', {
    maxLength: 20,
  }),
  pay_currency: Str('Payment currency symbol; fixed once there are subscriptions', { maxLength: 20 }),
  issue_price: Str('Issue price, above 0; fixed once there are subscriptions'),
  total_supply: Str('Coins offered; never below what is subscribed'),
  user_min: Str('Smallest subscription, above 0'),
  user_max: Str('Largest total of one user, at least the smallest'),
  starts_at: Str('Opens, ISO 8601; fixed once there are subscriptions', { maxLength: 40 }),
  ends_at: Str('Closes, ISO 8601, after the opening', { maxLength: 40 }),
  launch_at: Str('Launch, ISO 8601, not before closing; fixed once passed or listed', { maxLength: 40 }),
  lockup_days: Str('Lock-up after launch in days, 0 to 3650; fixed once there are subscriptions'),
  expected_return: Str('Expected gross return as a fraction, 0 to 100'),
  recommend: Str('1 or 0'),
  tick_size: Str("Tick of the coin's market; fixed once listed"),
  lot_size: Str("Lot of the coin's market; fixed once listed"),
  sort: Str('Display order, 0 to 9999'),
});
export type ConfigLaunchpadProjectBody = Static<typeof ConfigLaunchpadProjectBody>;
