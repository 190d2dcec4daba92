import type { Lang, TrustOrder, TrustProduct } from '@verdant/api';
import {
  daysAccrued,
  dec,
  earlyRedemptionPenalty,
  subDecimal,
  totalYieldRate,
  truncateDecimal,
} from '@verdant/engine';
import { canon } from '../../db/values.ts';
import type { Currency } from '../../ledger/currencies.ts';
import type { OrderRow, ProductRow } from './store.ts';

// Products and orders as the API shows them (HTTP answers and socket pushes alike).

const iso = (msText: string | number) => new Date(Number(msText)).toISOString();
const nameIn = (names: Record<string, string>, lang: Lang) => names[lang] ?? names.en ?? '';

export function toProduct(p: ProductRow, c: Currency, lang: Lang): TrustProduct {
  const amt = (v: string) => truncateDecimal(v, c.decimals);
  return {
    id: p.id,
    name: nameIn(p.name, lang),
    currency: c.symbol,
    currency_id: c.id,
    decimals: c.decimals,
    term_days: p.term_days,
    min_amount: amt(p.min_amount),
    daily_rate: canon(p.daily_rate),
    total_rate: canon(totalYieldRate(p.daily_rate, p.term_days)),
    state: p.state,
    capacity: amt(p.capacity),
    remaining: amt(subDecimal(p.capacity, p.sold)),
    penalty_rule: p.penalty_rule,
    penalty_rate: canon(p.penalty_rate),
  };
}

/** An order of product `p` in currency `c` as of `now`, with days of `dayMs`. */
export function toOrder(
  o: OrderRow,
  p: ProductRow,
  c: Currency,
  lang: Lang,
  now: number,
  dayMs: number,
): TrustOrder {
  const amt = (v: string) => truncateDecimal(v, c.decimals);
  const start = Number(o.started_at);
  const hosting = o.status === 'hosting';
  // the job may be behind (a process restarting): show what the order is owed by now
  const days = hosting ? Math.max(o.days_paid, daysAccrued(start, now, o.term_days, dayMs)) : o.days_paid;
  const penalty = hosting
    ? earlyRedemptionPenalty({
        rule: o.penalty_rule,
        rate: o.penalty_rate,
        principal: o.amount,
        dailyRate: o.daily_rate,
        termDays: o.term_days,
        daysAccrued: days,
        decimals: c.decimals,
      })
    : (o.penalty ?? '0');
  return {
    id: o.id,
    product_id: o.product_id,
    name: nameIn(p.name, lang),
    currency: c.symbol,
    decimals: c.decimals,
    status: o.status,
    amount: amt(o.amount),
    term_days: o.term_days,
    daily_rate: canon(o.daily_rate),
    daily_interest: amt(o.daily_interest),
    days_paid: o.days_paid,
    remaining_days: hosting ? o.term_days - days : 0,
    income: amt(o.interest_paid),
    expected_income: amt(dec(o.daily_interest).times(o.term_days).toFixed()),
    penalty_rule: o.penalty_rule,
    penalty_rate: canon(o.penalty_rate),
    penalty: amt(penalty),
    started_at: iso(start),
    payout_time: hosting && days < o.term_days ? iso(start + (days + 1) * dayMs) : null,
    matures_at: iso(start + o.term_days * dayMs),
    ended_at: o.ended_at === null ? null : iso(o.ended_at),
  };
}
