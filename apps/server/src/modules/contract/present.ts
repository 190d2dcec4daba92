import type { ContractMarket, ContractPosition, ContractTick, ContractTickRecord } from '@verdant/api';
import { addDecimal, profitAndLoss } from '@verdant/engine';
import type { Queryable } from '../../db/client.ts';
import { canon } from '../../db/values.ts';
import type { Contract } from './job.ts';
import { eventsOf, type PositionRow, type Tick, ticksById } from './store.ts';

// Contracts and positions as the API shows them (HTTP answers and socket pushes alike).

const nul = (v: string | null) => (v === null ? null : canon(v));
const iso = (ms: number) => new Date(ms).toISOString();

export const apiTick = (c: Contract, t: Tick | undefined | null): ContractTick | null =>
  t ? { id: String(t.id), symbol: c.market.symbol, price: t.price, time: t.time, source: t.source } : null;

/** A tick inside a record: its time as ISO text, like every record's moments. */
const recordTick = (c: Contract, t: Tick | undefined | null): ContractTickRecord | null =>
  t
    ? { id: String(t.id), symbol: c.market.symbol, price: t.price, time: iso(t.time), source: t.source }
    : null;

/** Positions as the API shows them, with their history and, when holding, P&L at `current`. */
export async function present(
  q: Queryable,
  rows: PositionRow[],
  byId: (id: number) => Promise<Contract | undefined>,
  current: (c: Contract) => Promise<Tick | null>,
): Promise<ContractPosition[]> {
  if (rows.length === 0) return [];
  const events = await eventsOf(
    q,
    rows.map((r) => r.id),
  );
  const ticks = await ticksById(q, [
    ...new Set(
      [...rows.flatMap((r) => [r.open_tick_id, r.close_tick_id]), ...events.map((e) => e.tick_id)].filter(
        (x): x is string => x !== null,
      ),
    ),
  ]);
  const out: ContractPosition[] = [];
  for (const r of rows) {
    const c = (await byId(r.contract_id))!;
    const now = r.status === 'holding' ? await current(c) : null;
    const openPrice = nul(r.open_price);
    const pnl =
      r.status === 'closed'
        ? nul(r.pnl)
        : now && openPrice
          ? profitAndLoss(r.direction, openPrice, now.price, r.lots, canon(r.lot_value))
          : null;
    const fee = canon(r.open_fee);
    const closeFee = nul(r.close_fee);
    out.push({
      id: r.id,
      symbol: c.market.symbol,
      name: `${c.market.base}/${c.market.quote}`,
      direction: r.direction,
      type: r.type,
      status: r.status,
      price: canon(r.price),
      lots: r.lots,
      lot_value: canon(r.lot_value),
      multiple: r.multiple,
      market_value: canon(r.market_value),
      margin: canon(r.margin),
      fee: closeFee === null ? fee : addDecimal(fee, closeFee),
      open_fee: fee,
      close_fee: closeFee,
      open_price: openPrice,
      current_price: r.status === 'closed' ? nul(r.close_price) : (now?.price ?? null),
      pnl,
      payout: nul(r.payout),
      take_profit: nul(r.take_profit),
      stop_loss: nul(r.stop_loss),
      liquidation_price: nul(r.liquidation_price),
      close_reason: r.close_reason,
      open_tick: recordTick(c, r.open_tick_id ? ticks.get(r.open_tick_id) : null),
      close_tick: recordTick(c, r.close_tick_id ? ticks.get(r.close_tick_id) : null),
      created_at: iso(Number(r.created_at)),
      opened_at: r.opened_at === null ? null : iso(Number(r.opened_at)),
      closed_at: r.closed_at === null ? null : iso(Number(r.closed_at)),
      history: events
        .filter((e) => e.position_id === r.id)
        .map((e) => ({
          kind: e.kind,
          price: nul(e.price),
          take_profit: nul(e.take_profit),
          stop_loss: nul(e.stop_loss),
          tick: e.tick_id === null ? null : recordTick(c, ticks.get(e.tick_id)),
          time: iso(Number(e.t)),
        })),
    });
  }
  return out;
}

/** A contract market as the deal screen shows it, with its latest tick. */
export function contractInfo(c: Contract, latest: Tick | null): ContractMarket {
  return {
    id: c.id,
    symbol: c.market.symbol,
    name: `${c.market.base}/${c.market.quote}`,
    currency: c.currency,
    currency_id: c.currencyId,
    currency_decimals: c.spec.decimals,
    lot_value: c.spec.lotValue,
    multiples: [...c.spec.multiples],
    open_fee_rate: c.spec.openFeeRate,
    close_fee_rate: c.spec.closeFeeRate,
    maintenance_rate: c.spec.maintenanceRate,
    max_lots_per_order: c.spec.maxLotsPerOrder,
    max_lots_per_user: c.spec.maxLotsPerUser,
    max_open_positions: c.spec.maxOpenPositions,
    tick_size: c.spec.tickSize,
    price_decimals: c.market.priceDecimals,
    price: recordTick(c, latest),
  };
}
