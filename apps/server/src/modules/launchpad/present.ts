import type { Lang, LaunchpadOrder, LaunchpadProject, LaunchpadState } from '@verdant/api';
import { compareDecimal, DAY_MS, dec, subscriptionReturn, truncateDecimal } from '@verdant/engine';
import { canon } from '../../db/values.ts';
import type { Currency } from '../../ledger/currencies.ts';
import type { OrderRow, ProjectRow } from './store.ts';

// Projects and subscriptions as the API shows them (HTTP answers and socket pushes alike), and a
// project's state, computed from the clock.

const inLang = (m: Record<string, string>, lang: Lang) => m[lang] ?? m.en ?? '';
/** What a project takes in all, in the payment currency: supply × issue price. */
export const capacityOf = (p: ProjectRow) => dec(p.total_supply).times(p.issue_price).toFixed();
/** When a project's allotted coins unlock: launch + lock-up. */
export const unlockOf = (p: ProjectRow) => new Date(p.launch_at.getTime() + p.lockup_days * DAY_MS);

/**
 * A project's state at `now`: launched from its launch time; before that sold out when the
 * subscriptions reach its capacity or the subscription has closed; subscribing while open.
 */
export function projectState(p: ProjectRow, now: number): LaunchpadState {
  if (now >= p.launch_at.getTime()) return 'launched';
  if (compareDecimal(p.subscribed, capacityOf(p)) >= 0 || now >= p.ends_at.getTime()) return 'sold_out';
  if (now < p.starts_at.getTime()) return 'upcoming';
  return 'subscribing';
}

/** A project, its coin's current `price` given. */
export function toProject(
  p: ProjectRow,
  cs: ReadonlyMap<number, Currency>,
  price: string,
  lang: Lang,
  now: number,
): LaunchpadProject {
  const coin = cs.get(p.coin_currency_id)!;
  const pay = cs.get(p.pay_currency_id)!;
  const capacity = capacityOf(p);
  return {
    id: p.id,
    name: inLang(p.name, lang),
    intro: inLang(p.intro, lang),
    coin: coin.symbol,
    coin_decimals: coin.decimals,
    pay_currency: pay.symbol,
    pay_decimals: pay.decimals,
    issue_price: canon(p.issue_price),
    price,
    total_supply: truncateDecimal(p.total_supply, coin.decimals),
    subscribed: truncateDecimal(p.subscribed, pay.decimals),
    capacity: truncateDecimal(capacity, pay.decimals),
    progress: truncateDecimal(dec(p.subscribed).div(capacity).toFixed(), 4),
    user_min: truncateDecimal(p.user_min, pay.decimals),
    user_max: truncateDecimal(p.user_max, pay.decimals),
    starts_at: p.starts_at.toISOString(),
    ends_at: p.ends_at.toISOString(),
    launch_at: p.launch_at.toISOString(),
    lockup_days: p.lockup_days,
    unlock_at: unlockOf(p).toISOString(),
    expected_return: canon(p.expected_return),
    state: projectState(p, now),
  };
}

/** A subscription of project `p`, the coin's current `price` given (for a passed one's return). */
export function toOrder(
  o: OrderRow,
  p: ProjectRow,
  cs: ReadonlyMap<number, Currency>,
  price: string,
  lang: Lang,
  now: number,
): LaunchpadOrder {
  const pay = cs.get(p.pay_currency_id)!;
  const coin = cs.get(p.coin_currency_id)!;
  const ret =
    o.status === 'passed' && o.quantity !== null
      ? subscriptionReturn(o.quantity, p.issue_price, price, pay.decimals)
      : null;
  return {
    id: o.id,
    project_id: p.id,
    name: inLang(p.name, lang),
    coin: coin.symbol,
    coin_decimals: coin.decimals,
    pay_currency: pay.symbol,
    pay_decimals: pay.decimals,
    amount: truncateDecimal(o.amount, pay.decimals),
    status: o.status,
    issue_price: canon(p.issue_price),
    quantity: o.quantity === null ? null : truncateDecimal(o.quantity, coin.decimals),
    cost: o.cost === null ? null : truncateDecimal(o.cost, pay.decimals),
    refund: o.refund === null ? null : truncateDecimal(o.refund, pay.decimals),
    unlock_at: o.unlock_at?.toISOString() ?? null,
    redeemable:
      o.status === 'passed' && o.redeemed_at === null && o.unlock_at !== null && o.unlock_at.getTime() <= now,
    redeemed_at: o.redeemed_at?.toISOString() ?? null,
    accumulated_return: ret?.accumulated ?? null,
    return_rate: ret?.rate ?? null,
    reason: o.reason,
    created_at: o.created_at.toISOString(),
    reviewed_at: o.reviewed_at?.toISOString() ?? null,
  };
}
