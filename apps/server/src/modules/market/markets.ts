import type { MarketInfo } from '@verdant/api';
import type { Queryable } from '../../db/client.ts';
import { canon } from '../../db/values.ts';
import { currenciesById } from '../../ledger/currencies.ts';

/** A market row of the database, as the services use it (decimals are canonical strings). */
export interface Market {
  id: number;
  symbol: string;
  base: string;
  quote: string;
  baseCurrencyId: number;
  quoteCurrencyId: number;
  quoteDecimals: number;
  tickSize: string;
  lotSize: string;
  minAmount: string;
  makerFee: string;
  takerFee: string;
  priceDecimals: number;
  amountDecimals: number;
  enabled: boolean;
  sort: number;
  simPrice: string;
  simVolatility: string;
  simVolume: string;
  /** Served by the simulated index feed and back-fill; false for a launched coin (its price is its trades). */
  simulated: boolean;
  /** Order limits (migration 0008): largest quantity and value of one order, open orders per user, price band. */
  maxQty: string;
  maxAmount: string;
  maxOpenOrders: number;
  /** A limit order's price must lie within this fraction of the index (0.2 = ±20 %). */
  priceBand: string;
}

interface Row {
  id: number;
  symbol: string;
  base_currency_id: number;
  quote_currency_id: number;
  tick_size: string;
  lot_size: string;
  min_amount: string;
  maker_fee: string;
  taker_fee: string;
  price_decimals: number;
  amount_decimals: number;
  enabled: boolean;
  sort: number;
  sim_price: string;
  sim_volatility: string;
  sim_volume: string;
  simulated: boolean;
  max_qty: string;
  max_amount: string;
  max_open_orders: number;
  price_band: string;
}

/** Every market, enabled or not, in display order; currency symbols and decimals from the ledger's list. */
export async function loadMarkets(q: Queryable): Promise<Market[]> {
  const currencies = await currenciesById(q);
  const rows = await q.query<Row>(
    `SELECT m.id, m.symbol, m.base_currency_id, m.quote_currency_id,
            m.tick_size::text AS tick_size, m.lot_size::text AS lot_size,
            m.min_amount::text AS min_amount, m.maker_fee::text AS maker_fee, m.taker_fee::text AS taker_fee,
            m.price_decimals, m.amount_decimals, m.enabled, m.sort, m.sim_price::text AS sim_price,
            m.sim_volatility::text AS sim_volatility, m.sim_volume::text AS sim_volume, m.simulated,
            m.max_qty::text AS max_qty, m.max_amount::text AS max_amount, m.max_open_orders,
            m.price_band::text AS price_band
       FROM markets m
      ORDER BY m.sort, m.id`,
  );
  const currency = (id: number) => {
    const c = currencies.get(id);
    // a foreign key holds every market's currencies, so this is a broken database
    if (!c) throw new Error(`market currency ${id} is missing`);
    return c;
  };
  return rows.map((r) => ({
    id: r.id,
    symbol: r.symbol,
    base: currency(r.base_currency_id).symbol,
    quote: currency(r.quote_currency_id).symbol,
    baseCurrencyId: r.base_currency_id,
    quoteCurrencyId: r.quote_currency_id,
    quoteDecimals: currency(r.quote_currency_id).decimals,
    tickSize: canon(r.tick_size),
    lotSize: canon(r.lot_size),
    minAmount: canon(r.min_amount),
    makerFee: canon(r.maker_fee),
    takerFee: canon(r.taker_fee),
    priceDecimals: r.price_decimals,
    amountDecimals: r.amount_decimals,
    enabled: r.enabled,
    sort: r.sort,
    simPrice: canon(r.sim_price),
    simVolatility: canon(r.sim_volatility),
    simVolume: canon(r.sim_volume),
    simulated: r.simulated,
    maxQty: canon(r.max_qty),
    maxAmount: canon(r.max_amount),
    maxOpenOrders: r.max_open_orders,
    priceBand: canon(r.price_band),
  }));
}

/** What a new market is made of; the rest (fees, limits, band) takes the usual values. */
export interface NewMarket {
  baseCurrencyId: number;
  quoteCurrencyId: number;
  tickSize: string;
  lotSize: string;
  /** The price it starts from (the issue price): sizes its largest order, never an index. */
  referencePrice: string;
}

/** Places of a step such as 0.0001 (4) or 1 (0). */
const placesOf = (step: string) => (canon(step).split('.')[1] ?? '').length;

/**
 * Adds an enabled, not simulated market (a launched coin) inside the caller's transaction;
 * answers its id. Fees and limits as the listed coins have them (migrations 0005, 0008); the
 * largest quantity is worth about the largest order value at the reference price.
 */
export async function insertMarket(q: Queryable, n: NewMarket): Promise<number> {
  const currencies = await currenciesById(q);
  const base = currencies.get(n.baseCurrencyId)!;
  const quote = currencies.get(n.quoteCurrencyId)!;
  const symbol = `${base.symbol}${quote.symbol}`.toLowerCase().replace(/[^a-z0-9]/g, '');
  const [row] = await q.query<{ id: number }>(
    `INSERT INTO markets (id, symbol, base_currency_id, quote_currency_id, tick_size, lot_size, min_amount,
                          maker_fee, taker_fee, price_decimals, amount_decimals, sort, sim_price,
                          sim_volatility, sim_volume, simulated, max_qty)
     SELECT coalesce(max(id), 0) + 1, $1, $2, $3, $4::numeric, $5::numeric, 5, 0.001, 0.001, $6, $7,
            coalesce(max(sort), 0) + 1, $8::numeric, 1, 0, false,
            greatest(trunc(10000000 / $8::numeric / $5::numeric) * $5::numeric, $5::numeric)
       FROM markets
     RETURNING id`,
    [
      symbol,
      n.baseCurrencyId,
      n.quoteCurrencyId,
      n.tickSize,
      n.lotSize,
      placesOf(n.tickSize),
      placesOf(n.lotSize),
      n.referencePrice,
    ],
  );
  return row!.id;
}

/** "BTC/USDT", "btc_usdt", "BTC-USDT" and "btcusdt" all name the market btcusdt. */
export function normalizeSymbol(input: string): string {
  return input
    .trim()
    .toLowerCase()
    .replace(/[/_\-\s]/g, '');
}

export function marketInfo(m: Market): MarketInfo {
  return {
    id: m.id,
    symbol: m.symbol,
    name: `${m.base}/${m.quote}`,
    base: m.base,
    quote: m.quote,
    base_currency_id: m.baseCurrencyId,
    quote_currency_id: m.quoteCurrencyId,
    tick_size: m.tickSize,
    lot_size: m.lotSize,
    min_amount: m.minAmount,
    maker_fee: m.makerFee,
    taker_fee: m.takerFee,
    price_decimals: m.priceDecimals,
    amount_decimals: m.amountDecimals,
  };
}
