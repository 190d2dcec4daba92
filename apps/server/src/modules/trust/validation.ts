import { TRUST_ORDER_STATUSES, type TrustBuyBody, type TrustOrderStatus } from '@verdant/api';
import { compareDecimal, parseDecimal, truncateDecimal } from '@verdant/engine';
import { AppError, invalid } from '../../http/errors.ts';
import type { Currency } from '../../ledger/currencies.ts';
import type { ProductRow } from './store.ts';

// The user's input, checked in the order of spec §5; each failure a localized error naming its field.

export function parseProductId(v: string | undefined): number {
  const s = (v ?? '').trim();
  if (!s) throw invalid('trust.productRequired', 'product_id');
  if (!/^\d{1,9}$/.test(s)) throw new AppError('NOT_FOUND', 'trust.productUnknown', {}, 'product_id');
  return Number(s);
}

export function parseOrderId(v: string | undefined): string {
  const s = (v ?? '').trim();
  if (!s) throw invalid('trust.orderRequired', 'id');
  if (!/^\d{1,18}$/.test(s)) throw new AppError('NOT_FOUND', 'trust.orderUnknown', {}, 'id');
  return s;
}

/** A purchase of `p`: on sale, amount present, a number, at least the minimum, agreement ticked. */
export function parseBuy(body: TrustBuyBody, p: ProductRow, c: Currency): string {
  if (p.state !== 'ongoing') throw new AppError('CONFLICT', 'trust.notOpen', {}, 'product_id');
  const raw = (body.amount ?? '').trim();
  if (!raw) throw invalid('trust.amountRequired', 'amount');
  const amount = parseDecimal(raw, { positive: true, maxDecimals: c.decimals });
  if (amount === null) throw invalid('trust.amountInvalid', 'amount', { decimals: c.decimals });
  const min = truncateDecimal(p.min_amount, c.decimals);
  if (compareDecimal(amount, p.min_amount) < 0)
    throw new AppError('AMOUNT_BELOW_MINIMUM', 'trust.belowMinimum', { min, symbol: c.symbol }, 'amount');
  const agree = (body.agree ?? '').trim().toLowerCase();
  if (agree !== '1' && agree !== 'true' && agree !== 'on')
    throw new AppError('AGREEMENT_REQUIRED', 'trust.agreementRequired', {}, 'agree');
  return amount;
}

/** The orders tab: hosting by default. */
export function parseOrderStatus(v: string | undefined): TrustOrderStatus {
  const status = (v ?? '').trim() || 'hosting';
  if (!(TRUST_ORDER_STATUSES as readonly string[]).includes(status))
    throw invalid('trust.statusInvalid', 'status');
  return status as TrustOrderStatus;
}
