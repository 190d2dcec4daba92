import type { ConfigMarket, ConfigMarketBody, Lang } from '@verdant/api';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { auditedChange, ConfigFields, type OperatorSession } from '../admin/service.ts';
import { toSteps } from './candles.ts';
import { loadMarkets, type Market } from './markets.ts';

/** Largest fee rate an operator may set (10 %): a typo such as 0.5 is refused, not charged. */
const MAX_FEE = '0.1';
/** Places a step may have: tick × lot must stay exact in NUMERIC(36,18). */
const MAX_STEP_PLACES = 18;

const placesOf = (d: string) => (d.split('.')[1] ?? '').length;

const toConfig = (m: Market): ConfigMarket => ({
  id: m.id,
  symbol: m.symbol,
  name: `${m.base}/${m.quote}`,
  tick_size: m.tickSize,
  lot_size: m.lotSize,
  min_amount: m.minAmount,
  maker_fee: m.makerFee,
  taker_fee: m.takerFee,
  enabled: m.enabled,
  simulated: m.simulated,
});

/**
 * A step may only become finer, by a whole factor (0.01 → 0.005, 0.001): every resting order,
 * trade and candle stays on the new grid, so nothing already placed or recorded changes or
 * breaks (docs/decisions.md). The tick of a market following the index feed is fixed: contract
 * triggers and candles count that feed's prices in its ticks.
 */
function checkSteps(f: ConfigFields, before: ConfigMarket, tick: string, lot: string) {
  if (tick !== before.tick_size) {
    if (before.simulated) throw f.fail('tick_size', 'tickFollowsIndex');
    if (!toSteps(before.tick_size, tick)) throw f.fail('tick_size', 'stepFiner', { step: before.tick_size });
  }
  if (lot !== before.lot_size && !toSteps(before.lot_size, lot))
    throw f.fail('lot_size', 'stepFiner', { step: before.lot_size });
}

/**
 * Operators' side of spot markets (issue 23): tick, lot, minimum order value and fees. A new
 * tick or lot applies to new orders; orders resting on the book keep their price and quantity
 * (the book's grid, spot/desk.ts). Fees apply to fills from the next batch on; a fill already
 * made keeps its fee. Prices are never configuration: they are the index and the trades.
 */
export function marketConfig(ctx: AppContext) {
  const { db } = ctx;

  async function row(q: Queryable, id: number): Promise<ConfigMarket | null> {
    // the row locked first: two operators' changes of one market follow each other
    const [locked] = await q.query<{ id: number }>('SELECT id FROM markets WHERE id = $1 FOR UPDATE', [id]);
    if (!locked) return null;
    const m = (await loadMarkets(q)).find((x) => x.id === id);
    return m ? toConfig(m) : null;
  }

  return {
    async list(): Promise<ConfigMarket[]> {
      return (await loadMarkets(db)).map(toConfig);
    },

    async save(op: OperatorSession, ip: string, body: ConfigMarketBody, lang: Lang): Promise<ConfigMarket> {
      const f = new ConfigFields(body, lang);
      const id = f.integer('id', 1, 999_999_999);
      const step = (field: string) =>
        f.decimal(field, { min: '0', max: '1000000', above: true, places: MAX_STEP_PLACES });
      const tick = step('tick_size');
      const lot = step('lot_size');
      if (placesOf(tick) + placesOf(lot) > MAX_STEP_PLACES)
        throw f.fail('lot_size', 'stepPlaces', { places: MAX_STEP_PLACES });
      const minAmount = f.decimal('min_amount', { min: '0', max: '1000000000', places: 18 });
      const makerFee = f.decimal('maker_fee', { min: '0', max: MAX_FEE, places: 8 });
      const takerFee = f.decimal('taker_fee', { min: '0', max: MAX_FEE, places: 8 });
      const after = await auditedChange(db, {
        op,
        ip,
        action: 'config.market.save',
        targetType: 'market',
        targetId: id,
        read: (q) => row(q, id),
        write: async (q, before) => {
          if (!before) throw f.fail('id', 'unknown');
          checkSteps(f, before, tick, lot);
          // prices and quantities are shown with the places of the finer step (old or new)
          await q.query(
            `UPDATE markets SET tick_size = $2, lot_size = $3, min_amount = $4, maker_fee = $5, taker_fee = $6,
                    price_decimals = greatest(price_decimals, $7), amount_decimals = greatest(amount_decimals, $8)
              WHERE id = $1`,
            [id, tick, lot, minAmount, makerFee, takerFee, placesOf(tick), placesOf(lot)],
          );
        },
      });
      await ctx.changes.changed('markets');
      return after;
    },
  };
}
