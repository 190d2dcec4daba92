import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dec } from '../decimal.ts';
import {
  type ContractSpec,
  checkLimitSide,
  checkLots,
  checkPrice,
  checkSpec,
  checkStops,
  isLiquidatedAt,
  liquidationTicks,
  maintenanceMargin,
  marketValue,
  openCost,
  priceToTicks,
  profitAndLoss,
  settle,
  ticksToPrice,
} from './mechanics.ts';

const btc: ContractSpec = {
  lotValue: '0.01',
  multiples: [5, 10, 20, 50, 100],
  openFeeRate: '0.0005',
  closeFeeRate: '0.0005',
  maintenanceRate: '0.005',
  maxLotsPerOrder: 500,
  maxLotsPerUser: 2000,
  maxOpenPositions: 50,
  decimals: 6,
  tickSize: '0.01',
};

describe('contract formulas against hand-computed cases', () => {
  it('opening 3 lots of 0.01 BTC at 60,000 with 10×: value 1,800, margin 180, fee 0.9', () => {
    expect(marketValue('60000', 3, '0.01')).toBe('1800');
    expect(openCost(btc, '60000', 3, 10)).toEqual({
      marketValue: '1800',
      margin: '180',
      fee: '0.9',
      total: '180.9',
    });
  });

  it('rounds the margin up to the currency decimals, never down', () => {
    // 600.0001 / 3 = 200.0000333…
    expect(openCost(btc, '60000.01', 1, 3).margin).toBe('200.000034');
  });

  it('a long closed 1,000 higher earns 30 and pays the closing fee; the pool pays the profit', () => {
    expect(profitAndLoss('long', '60000', '61000', 3, '0.01')).toBe('30');
    expect(settle(btc, 'long', '60000', '61000', 3, '180')).toEqual({
      pnl: '30',
      fee: '0.915',
      payout: '209.085',
      pool: '-30',
    });
  });

  it('a short closed 1,000 higher loses 30 to the pool', () => {
    expect(profitAndLoss('short', '60000', '61000', 3, '0.01')).toBe('-30');
    expect(settle(btc, 'short', '60000', '61000', 3, '180')).toEqual({
      pnl: '-30',
      fee: '0.915',
      payout: '149.085',
      pool: '30',
    });
  });

  it('a loss never takes more than the margin: nothing paid out, no fee, the pool keeps the margin', () => {
    expect(settle(btc, 'long', '60000', '50000', 3, '180')).toEqual({
      pnl: '-300',
      fee: '0',
      payout: '0',
      pool: '180',
    });
  });

  it('when equity is below the closing fee, the fee takes what is left', () => {
    const s = settle(btc, 'long', '60000', '54016.67', 3, '180');
    expect(s.pnl).toBe('-179.4999');
    expect(s.fee).toBe('0.5001');
    expect(s.payout).toBe('0');
    expect(s.pool).toBe('179.4999');
  });

  it('maintenance margin 9 puts a 10× long of 3 lots at 60,000 into liquidation at 54,300 and a short at 65,700', () => {
    expect(maintenanceMargin(btc, '60000', 3)).toBe('9');
    expect(liquidationTicks(btc, 'long', '60000', 3, '180')).toBe(5_430_000);
    expect(liquidationTicks(btc, 'short', '60000', 3, '180')).toBe(6_570_000);
    expect(isLiquidatedAt(btc, 'long', '60000', '54300', 3, '180')).toBe(true);
    expect(isLiquidatedAt(btc, 'long', '60000', '54300.01', 3, '180')).toBe(false);
    expect(isLiquidatedAt(btc, 'short', '60000', '65700', 3, '180')).toBe(true);
    expect(isLiquidatedAt(btc, 'short', '60000', '65699.99', 3, '180')).toBe(false);
  });

  it('a 1× long without maintenance margin is never liquidated at a positive price', () => {
    const spec = { ...btc, multiples: [1], maintenanceRate: '0' };
    expect(liquidationTicks(spec, 'long', '60000', 1, openCost(spec, '60000', 1, 1).margin)).toBeNull();
  });

  it('converts prices to ticks and back, refusing prices off the grid', () => {
    expect(priceToTicks('60000.01', '0.01')).toBe(6_000_001);
    expect(priceToTicks('60000.015', '0.01')).toBeNull();
    expect(ticksToPrice(6_000_001, '0.01')).toBe('60000.01');
  });
});

describe('contract rules', () => {
  it('lots must be a positive whole number within the per-order maximum', () => {
    expect(checkLots(btc, '3')).toBe(3);
    expect(checkLots(btc, 7)).toBe(7);
    for (const bad of ['0', '-1', '1.5', 'abc', '', ' ', '1e3', null, undefined, 2.5])
      expect(checkLots(btc, bad)).toBe('lotsInvalid');
    expect(checkLots(btc, '501')).toBe('lotsTooMany');
  });

  it('prices must be positive and on the tick grid', () => {
    expect(checkPrice(btc, '61000.50')).toBe('61000.5');
    expect(checkPrice(btc, '61000.505')).toBeNull();
    expect(checkPrice(btc, '0')).toBeNull();
    expect(checkPrice(btc, '-5')).toBeNull();
  });

  it('take-profit and stop-loss: both or neither, each on its side of the price', () => {
    expect(checkStops('long', '60000', null, null)).toBeNull();
    expect(checkStops('long', '60000', '65000', null)).toBe('stopsRequired');
    expect(checkStops('long', '60000', null, '55000')).toBe('stopsRequired');
    expect(checkStops('long', '60000', '65000', '55000')).toBeNull();
    expect(checkStops('long', '60000', '60000', '55000')).toBe('takeProfitSide');
    expect(checkStops('long', '60000', '65000', '61000')).toBe('stopLossSide');
    expect(checkStops('short', '60000', '55000', '65000')).toBeNull();
    expect(checkStops('short', '60000', '65000', '55000')).toBe('takeProfitSide');
    expect(checkStops('short', '60000', '55000', '59000')).toBe('stopLossSide');
  });

  it('a limit order waits below the market for a long and above it for a short', () => {
    expect(checkLimitSide('long', '60000', '59000')).toBeNull();
    expect(checkLimitSide('long', '60000', '60000')).toBe('limitSide');
    expect(checkLimitSide('short', '60000', '61000')).toBeNull();
    expect(checkLimitSide('short', '60000', '59000')).toBe('limitSide');
  });

  it('refuses market data whose maintenance margin reaches the margin of its largest multiple', () => {
    expect(checkSpec(btc)).toBeNull();
    expect(checkSpec({ ...btc, maintenanceRate: '0.01' })).toMatch(/maintenance/);
    expect(checkSpec({ ...btc, multiples: [] })).toMatch(/multiples/);
  });
});

describe('contract properties', () => {
  const arb = fc.record({
    direction: fc.constantFrom('long' as const, 'short' as const),
    open: fc.integer({ min: 1, max: 10_000_000 }),
    close: fc.integer({ min: 1, max: 10_000_000 }),
    lots: fc.integer({ min: 1, max: 500 }),
    multiple: fc.constantFrom(5, 10, 20, 50, 100),
  });

  it('settling moves exactly the margin: payout + fee + pool = margin; payout ≥ 0; fee ≥ 0', () => {
    fc.assert(
      fc.property(arb, ({ direction, open, close, lots, multiple }) => {
        const o = ticksToPrice(open, btc.tickSize);
        const c = ticksToPrice(close, btc.tickSize);
        const { margin } = openCost(btc, o, lots, multiple);
        const s = settle(btc, direction, o, c, lots, margin);
        expect(dec(s.payout).plus(s.fee).plus(s.pool).eq(margin)).toBe(true);
        expect(dec(s.payout).gte(0)).toBe(true);
        expect(dec(s.fee).gte(0)).toBe(true);
        // rounding never pays the user more than equity less the fee
        const owed = dec(margin).plus(s.pnl).minus(s.fee);
        expect(dec(s.payout).lte(owed.gt(0) ? owed : dec('0'))).toBe(true);
      }),
    );
  });

  it('the liquidation tick is the first grid price where equity reaches the maintenance margin', () => {
    fc.assert(
      fc.property(arb, ({ direction, open, lots, multiple }) => {
        const o = ticksToPrice(open, btc.tickSize);
        const { margin } = openCost(btc, o, lots, multiple);
        const t = liquidationTicks(btc, direction, o, lots, margin);
        if (t === null) return;
        const at = (k: number) =>
          isLiquidatedAt(btc, direction, o, ticksToPrice(k, btc.tickSize), lots, margin);
        expect(at(t)).toBe(true);
        // one tick on the safe side is not liquidated
        expect(at(direction === 'long' ? t + 1 : t - 1)).toBe(false);
        // and the opening price is safe
        expect(at(open)).toBe(false);
      }),
    );
  });
});
