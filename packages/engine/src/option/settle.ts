import { compareDecimal, dec, fromScaled, parseDecimal, truncateDecimal } from '../decimal.ts';

/**
 * Timed options: the user stakes an amount on the index going up (bullish) or down (bearish)
 * between the purchase tick and the delivery tick. Pure rules, no I/O: the server looks the ticks
 * up and moves the money through the ledger with what these functions answer.
 */

export type OptionDirection = 'bullish' | 'bearish';
export type OptionResult = 'win' | 'loss' | 'flat';

/** A recorded index tick as the rules need it: when (ms since 1970) and at what price. */
export interface OptionTick {
  time: number;
  price: string;
}

/**
 * Bullish wins when the delivery price is above the purchase price, bearish when it is below;
 * the same price is flat whatever the direction.
 */
export function optionResult(
  direction: OptionDirection,
  purchasePrice: string,
  deliveryPrice: string,
): OptionResult {
  const c = compareFixed(deliveryPrice, purchasePrice);
  if (c === 0) return 'flat';
  return c > 0 === (direction === 'bullish') ? 'win' : 'loss';
}

export interface OptionTerms {
  /** The stake, a positive decimal string in the payable currency. */
  amount: string;
  /** Profit paid on a win as a fraction of the stake ("0.8" = 80 %). */
  profitRatio: string;
  /** Fee taken from a win's profit, as a fraction of that profit ("0.02" = 2 %). */
  feeRate: string;
  /** Places of the payable currency: profit and fee are truncated to them. */
  decimals: number;
}

export interface OptionPayout {
  /** Profit before the fee: amount × profitRatio, truncated (never rounded up). */
  gross: string;
  /** The fee: gross × feeRate, truncated. */
  fee: string;
  /** What a win adds to the stake: gross − fee. */
  net: string;
}

/** A plain decimal as digits and places ("12.50" → 1250n, 2), or null (exponents, spaces: decimal.js reads those). */
function fixed(s: string): { v: bigint; places: number } | null {
  if (!PLAIN_RE.test(s)) return null;
  const dot = s.indexOf('.');
  return dot < 0
    ? { v: BigInt(s), places: 0 }
    : { v: BigInt(s.slice(0, dot) + s.slice(dot + 1)), places: s.length - dot - 1 };
}
const PLAIN_RE = /^-?\d+(?:\.\d+)?$/;
const pow10 = (n: number) => 10n ** BigInt(n);
/** compareDecimal without decimal.js for plain decimals (every order of a pass compares its prices). */
function compareFixed(x: string, y: string): -1 | 0 | 1 {
  const a = fixed(x);
  const b = fixed(y);
  if (!a || !b) return compareDecimal(x, y);
  const places = Math.max(a.places, b.places);
  const d = rescale(a.v, a.places, places) - rescale(b.v, b.places, places);
  return d > 0n ? 1 : d < 0n ? -1 : 0;
}
/** `v` at `from` places cut (toward zero, as truncateDecimal) or padded to `to` places. */
const rescale = (v: bigint, from: number, to: number) =>
  from > to ? v / pow10(from - to) : v * pow10(to - from);

/** What a win pays on top of the stake, and the fee taken from it (shown before purchase too). */
export function winPayout(t: OptionTerms): OptionPayout {
  // Exact integer arithmetic when the terms are plain decimals (settlement runs this for every
  // order of a pass; decimal.js was most of its cost); the same truncations as the fallback.
  const a = fixed(t.amount);
  const r = fixed(t.profitRatio);
  const f = fixed(t.feeRate);
  if (a && r && f && Number.isInteger(t.decimals) && t.decimals >= 0) {
    const gross = rescale(a.v * r.v, a.places + r.places, t.decimals);
    const fee = rescale(gross * f.v, t.decimals + f.places, t.decimals);
    return {
      gross: fromScaled(gross, t.decimals),
      fee: fromScaled(fee, t.decimals),
      net: fromScaled(gross - fee, t.decimals),
    };
  }
  const gross = truncateDecimal(dec(t.amount).times(t.profitRatio).toFixed(), t.decimals);
  const fee = truncateDecimal(dec(gross).times(t.feeRate).toFixed(), t.decimals);
  return { gross, fee, net: dec(gross).minus(fee).toFixed() };
}

export interface OptionSettlement {
  result: OptionResult;
  /** What the user gets back into the option account: stake + net on a win, the stake when flat, 0 on a loss. */
  payout: string;
  /** The user's profit and loss: net on a win, 0 when flat, −stake on a loss. */
  pnl: string;
  /** The fee taken (a win only; 0 otherwise). */
  fee: string;
  /** What the house option pool pays (negative: what it receives): net + fee on a win, −stake on a loss. */
  pool: string;
}

/**
 * The whole settlement of one order. Money sums to zero: the stake in flight (amount) is
 * split into payout to the user, fee to the house fees account, and the rest to or from the
 * option pool: amount + pool = payout + fee.
 */
export function settleOption(
  t: OptionTerms & { direction: OptionDirection; purchasePrice: string; deliveryPrice: string },
): OptionSettlement {
  const result = optionResult(t.direction, t.purchasePrice, t.deliveryPrice);
  if (result === 'flat') return { result, payout: canonical(t.amount), pnl: '0', fee: '0', pool: '0' };
  if (result === 'loss')
    return { result, payout: '0', pnl: canonical(`-${t.amount}`), fee: '0', pool: canonical(`-${t.amount}`) };
  const w = winPayout(t);
  const a = fixed(t.amount);
  const net = fixed(w.net)!;
  const places = Math.max(a?.places ?? 0, net.places);
  return {
    result,
    payout: a
      ? fromScaled(rescale(a.v, a.places, places) + rescale(net.v, net.places, places), places)
      : dec(t.amount).plus(w.net).toFixed(),
    pnl: w.net,
    fee: w.fee,
    pool: w.gross,
  };
}

const canonical = (v: string) => parseDecimal(v) ?? '0';

/**
 * The purchase tick: the latest recorded at or before `at` (null when there is none). Ticks in
 * any order; of two at the same time the later in the list counts (the later recorded).
 */
export function purchaseTick<T extends OptionTick>(ticks: readonly T[], at: number): T | null {
  let best: T | null = null;
  for (const t of ticks) if (t.time <= at && (best === null || t.time >= best.time)) best = t;
  return best;
}

/**
 * The delivery tick: the first recorded at or after the delivery time (null while there is
 * none yet: the order waits for it). Of two at the same time the earlier in the list counts.
 */
export function deliveryTick<T extends OptionTick>(ticks: readonly T[], deliverAt: number): T | null {
  let best: T | null = null;
  for (const t of ticks) if (t.time >= deliverAt && (best === null || t.time < best.time)) best = t;
  return best;
}
