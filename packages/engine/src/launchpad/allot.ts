import { compareDecimal, dec, truncateDecimal } from '../decimal.ts';

/**
 * New-coin subscription: a user pays an amount of the payment currency at the issue price; an
 * operator allots all or part of it. Pure rules, no I/O.
 */

export interface Allotment {
  /** Coins credited, truncated to the coin's decimals. */
  quantity: string;
  /** What the allotted coins cost: quantity × issue price (kept by the platform). */
  cost: string;
  /** What goes back to the subscriber: subscribed amount − cost. */
  refund: string;
}

/**
 * Allots `allotAmount` (≤ the subscribed amount) of a subscription: quantity = allotAmount / price
 * truncated to the coin's decimals; the cost is what those coins cost at the issue price, so the
 * fraction the truncation drops is refunded, never kept.
 */
export function allot(
  subscribed: string,
  allotAmount: string,
  issuePrice: string,
  coinDecimals: number,
): Allotment {
  if (compareDecimal(allotAmount, '0') < 0 || compareDecimal(allotAmount, subscribed) > 0)
    throw new RangeError('allotted amount must be between 0 and the subscribed amount');
  if (compareDecimal(issuePrice, '0') <= 0) throw new RangeError('issue price must be positive');
  const quantity = truncateDecimal(dec(allotAmount).div(issuePrice).toFixed(), coinDecimals);
  const cost = dec(quantity).times(issuePrice).toFixed();
  return { quantity, cost: dec(cost).toFixed(), refund: dec(subscribed).minus(cost).toFixed() };
}

/**
 * Return of allotted coins at the coin's current price: accumulated = quantity × (price − issue
 * price), truncated to the payment currency's decimals; rate = price / issue price − 1.
 */
export function subscriptionReturn(
  quantity: string,
  issuePrice: string,
  price: string,
  decimals: number,
): { accumulated: string; rate: string } {
  return {
    accumulated: truncateDecimal(dec(price).minus(issuePrice).times(quantity).toFixed(), decimals),
    rate: truncateDecimal(dec(price).div(issuePrice).minus(1).toFixed(), 8),
  };
}
