import { LAUNCHPAD_ORDER_STATUSES, LAUNCHPAD_STATES, type LaunchpadState } from '@verdant/api';
import { compareDecimal, parseDecimal, truncateDecimal } from '@verdant/engine';
import { AppError, invalid } from '../../http/errors.ts';
import type { Currency } from '../../ledger/currencies.ts';

// Users' and operators' input; each failure a localized error naming its field.

// an operator's reason reads as in every other review (the admin module's messages)
export const REASON_KEYS = { required: 'admin.reasonRequired', tooLong: 'admin.reasonTooLong' };

/** A project's or a subscription's id (`key`: project or order). */
export function parseId(v: string | undefined, field: string, key: 'project' | 'order'): string {
  const s = (v ?? '').trim();
  if (!s) throw invalid(`launchpad.${key}Required`, field);
  if (!/^\d{1,18}$/.test(s)) throw new AppError('NOT_FOUND', `launchpad.${key}Unknown`, {}, field);
  return s;
}

/** A subscription's amount in the payment currency: present, a positive number in its decimals. */
export function parseAmount(v: string | undefined, pay: Currency): string {
  const raw = (v ?? '').trim();
  if (!raw) throw invalid('launchpad.amountRequired', 'amount');
  const amount = parseDecimal(raw, { positive: true, maxDecimals: pay.decimals });
  if (amount === null) throw invalid('launchpad.amountInvalid', 'amount', { decimals: pay.decimals });
  return amount;
}

/** What an operator allots of a subscription of `paid`: empty for the whole, else 0 to `paid`. */
export function parseAllotment(v: string | undefined, paid: string, pay: Currency): string {
  const raw = (v ?? '').trim();
  const amount = raw ? parseDecimal(raw, { maxDecimals: pay.decimals }) : paid;
  if (amount === null || compareDecimal(amount, '0') < 0 || compareDecimal(amount, paid) > 0)
    throw invalid('launchpad.allotInvalid', 'amount', {
      max: truncateDecimal(paid, pay.decimals),
      symbol: pay.symbol,
    });
  return amount;
}

/** The projects filter: empty for all. */
export function parseState(v: string | undefined): LaunchpadState | '' {
  const state = (v ?? '').trim();
  if (state && !(LAUNCHPAD_STATES as readonly string[]).includes(state))
    throw invalid('launchpad.stateInvalid', 'state');
  return state as LaunchpadState | '';
}

/** A subscription status filter; `fallback` when empty. */
export function parseOrderStatus(v: string | undefined, fallback: string): string {
  const status = (v ?? '').trim() || fallback;
  if (status && !(LAUNCHPAD_ORDER_STATUSES as readonly string[]).includes(status))
    throw invalid('launchpad.statusInvalid', 'status');
  return status;
}
